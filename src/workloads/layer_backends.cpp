// The layer backend factories: the reference always, oneDNN and cuDNN when this build has them.
// CUDA is reached only through cuda_layers.hpp (plain C++), as in cuda_gemm_factory.cpp.
#include <jetperf/config.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#if JETPERF_HAS_CUDA
#include <jetperf/cuda/cuda_layers.hpp>
#endif

namespace jetperf::workloads {

std::unique_ptr<layer_backend> make_cudnn_layer_backend(std::string* why) {
#if JETPERF_HAS_CUDA
  // Checks the device and starts the handles, or says why not (no device, no cuDNN in the build).
  return cuda::make_cudnn_layer_backend(why);
#else
  if (why) *why = "not supported by this build (no cuDNN)";
  return nullptr;
#endif
}

std::unique_ptr<layer_backend> make_layer_backend(const std::string& device, std::string* why) {
  if (device == "cpu") return make_onednn_layer_backend(why);
  if (device == "cuda") return make_cudnn_layer_backend(why);
  if (why) *why = "unknown device \"" + device + "\" (expected \"cpu\" or \"cuda\")";
  return nullptr;
}

}  // namespace jetperf::workloads
