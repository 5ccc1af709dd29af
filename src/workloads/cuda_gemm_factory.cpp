// The host side's only door to cuBLAS: the CUDA plugin's table (cuda_plugin.hpp), loaded on the
// first CUDA point; a build without CUDA, or a plugin that is missing, answers per point instead.
#include <jetperf/workloads/cuda_plugin.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

namespace jetperf::workloads {

bool cuda_device_available() {
  const auto* plugin = cuda_plugin();
  return plugin && plugin->query_device().count > 0;
}

std::unique_ptr<gemm_backend> make_cuda_gemm_backend(std::string* why) {
  std::string not_loaded;
  const auto* plugin = cuda_plugin(&not_loaded);
  if (!plugin) {
    if (why) *why = not_loaded.rfind("not supported", 0) == 0 ? not_loaded : "skipped: " + not_loaded;
    return nullptr;
  }
  const auto info = plugin->query_device();
  if (info.count == 0) {
    if (why) *why = "skipped: no CUDA device (" + info.error + ")";
    return nullptr;
  }
  return plugin->make_cublas_backend();
}

}  // namespace jetperf::workloads
