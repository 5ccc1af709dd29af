// The layer backend factories: the reference always, oneDNN and cuDNN when this build has them.
// cuDNN is reached only through the CUDA plugin's table, as in cuda_gemm_factory.cpp.
#include <jetperf/workloads/cuda_plugin.hpp>
#include <jetperf/workloads/layer_backends.hpp>

namespace jetperf::workloads {

std::unique_ptr<layer_backend> make_cudnn_layer_backend(std::string* why) {
  std::string not_loaded;
  const auto* plugin = cuda_plugin(&not_loaded);
  if (!plugin) {
    if (why) *why = not_loaded.rfind("not supported", 0) == 0 ? "not supported by this build (no cuDNN)" : "skipped: " + not_loaded;
    return nullptr;
  }
  // Checks the device and starts the handles, or says why not (no device, no cuDNN in the build).
  return plugin->make_cudnn_layer_backend(why);
}

std::unique_ptr<layer_backend> make_layer_backend(const std::string& device, std::string* why) {
  if (device == "cpu") return make_onednn_layer_backend(why);
  if (device == "cuda") return make_cudnn_layer_backend(why);
  if (why) *why = "unknown device \"" + device + "\" (expected \"cpu\" or \"cuda\")";
  return nullptr;
}

}  // namespace jetperf::workloads
