// The sensor card's GPU load, reached only through the CUDA plugin's table, as in
// cuda_gemm_factory.cpp.
#include <jetperf/workloads/cuda_plugin.hpp>
#include <jetperf/workloads/gpu_loads.hpp>

namespace jetperf::workloads {

std::unique_ptr<gpu_load> make_gpu_load(std::string* why) {
  std::string not_loaded;
  const auto* plugin = cuda_plugin(&not_loaded);
  if (!plugin) {
    if (why) *why = not_loaded.rfind("not supported", 0) == 0 ? not_loaded : "skipped: " + not_loaded;
    return nullptr;
  }
  return plugin->make_gpu_load(why);
}

}  // namespace jetperf::workloads
