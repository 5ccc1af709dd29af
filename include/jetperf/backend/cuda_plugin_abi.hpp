#pragma once
// The contract between the host and the CUDA half of a CUDA build, which is a plugin
// (lib/jetperf/libjetperf_cuda.so) loaded on first use: a daemon that runs no CUDA work never maps
// cudart, cuBLAS and cuDNN, whose relocations alone cost about 170 MB of RSS. It sits below both
// sides (jetperf::backend) and holds no CUDA types. Both sides come from one build (the table
// carries the jetperf version and an ABI number, checked on load), so C++ types may cross it.
#include <cstddef>
#include <memory>
#include <string>

#include <jetperf/backend/gemm_backend.hpp>
#include <jetperf/backend/gpu_load.hpp>
#include <jetperf/backend/layer_backend.hpp>

namespace jetperf::workloads {

/// Device 0 and the CUDA libraries as the plugin found them.
struct cuda_device_info {
  int count = 0;          ///< 0 when no device (or the driver is missing)
  std::string error;      ///< cudaGetDeviceCount's error text when count == 0
  std::string name;
  int sm_major = 0;
  int sm_minor = 0;
  std::size_t memory_bytes = 0;
  int cuda_runtime_version = 0;
  int cuda_driver_version = 0;  ///< 0 without a driver
  int cublas_version = 0;
  int cudnn_version = 0;        ///< the loaded cuDNN library's, 0 in a build without cuDNN
};

/// Raised whenever a field of cuda_plugin_table or a type crossing it changes.
constexpr int k_cuda_plugin_abi = 3;  // 2: the backends' tracer(); 3: make_gpu_load
/// The plugin's one exported symbol: `extern "C" const cuda_plugin_table* jetperf_cuda_plugin_v1()`.
constexpr const char* k_cuda_plugin_entry = "jetperf_cuda_plugin_v1";

struct cuda_plugin_table {
  int abi;                       ///< k_cuda_plugin_abi of the plugin's build
  const char* jetperf_version;   ///< JETPERF_VERSION of the plugin's build
  /// Device 0 and the runtime; never throws.
  cuda_device_info (*query_device)();
  /// The cuBLAS backend on device 0; throws when CUDA calls fail.
  std::unique_ptr<gemm_backend> (*make_cublas_backend)();
  /// The cuDNN layer backend; nullptr with `why` set, never a throw.
  std::unique_ptr<layer_backend> (*make_cudnn_layer_backend)(std::string* why);
  /// The sensor card's GPU load on device 0; nullptr with `why` set, never a throw.
  std::unique_ptr<gpu_load> (*make_gpu_load)(std::string* why);
};

}  // namespace jetperf::workloads
