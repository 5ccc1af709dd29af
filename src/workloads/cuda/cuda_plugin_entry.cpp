// The plugin's one exported symbol (jetperf/backend/cuda_plugin_abi.hpp): the table of the CUDA
// half's entry points. Everything else in libjetperf_cuda.so is hidden (kernels/CMakeLists.txt),
// so its copies of the backend and model code never meet the host's.
#include <jetperf/backend/cuda_plugin_abi.hpp>
#include <jetperf/config.hpp>
#include <jetperf/cuda/cuda_gemm.hpp>
#include <jetperf/cuda/cuda_gpu_load.hpp>
#include <jetperf/cuda/cuda_layers.hpp>

extern "C" __attribute__((visibility("default"))) const jetperf::workloads::cuda_plugin_table* jetperf_cuda_plugin_v1() {
  namespace cuda = jetperf::workloads::cuda;
  static const jetperf::workloads::cuda_plugin_table table{jetperf::workloads::k_cuda_plugin_abi, JETPERF_VERSION,
                                                           &cuda::query_device, &cuda::make_cublas_backend,
                                                           &cuda::make_cudnn_layer_backend, &cuda::make_gpu_load};
  return &table;
}
