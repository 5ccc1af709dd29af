#include <jetperf/workloads/backend_versions.hpp>

#include <string>

#include <jetperf/config.hpp>

#if JETPERF_HAS_OPENBLAS
#include <cblas.h>
#endif
#if JETPERF_HAS_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#endif
#include <jetperf/workloads/cuda_plugin.hpp>

namespace jetperf::workloads {
namespace {

[[maybe_unused]] std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  return s;
}

}  // namespace

nlohmann::json backend_versions() {
  nlohmann::json j = nlohmann::json::object();
#if JETPERF_HAS_OPENBLAS && defined(OPENBLAS_VERSION)
  // OpenBLAS's own cblas.h: the loaded library's build (version, kernel, threading).
  j["openblas"] = trimmed(openblas_get_config());
#elif JETPERF_HAS_OPENBLAS
  j["openblas"] = "unknown (a cblas.h without OpenBLAS's version)";
#endif
#if JETPERF_HAS_ONEDNN
  const dnnl_version_t* v = dnnl_version();
  j["onednn"] = std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
#endif
#if JETPERF_HAS_CUDA
  // Only what is loaded: a job that ran no CUDA work did not load the plugin, and asking it for
  // versions would load 170 MB for nothing.
  if (!cuda_plugin_loaded()) {
    j["cuda"] = "not loaded (no CUDA work since the daemon started)";
  } else if (const auto* plugin = cuda_plugin()) {
    const auto d = plugin->query_device();
    j["cuda_runtime"] = d.cuda_runtime_version;
    j["cuda_driver"] = d.cuda_driver_version;
    j["cublas"] = d.cublas_version;
    if (d.cudnn_version) j["cudnn"] = d.cudnn_version;
    j["cuda_device"] = d.count > 0 ? d.name : "none (" + d.error + ")";
  }
#endif
  return j;
}

}  // namespace jetperf::workloads
