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

backend_versions loaded_backend_versions() {
  backend_versions v;
#if JETPERF_HAS_OPENBLAS && defined(OPENBLAS_VERSION)
  // OpenBLAS's own cblas.h: the loaded library's build (version, kernel, threading).
  v.openblas = trimmed(openblas_get_config());
#elif JETPERF_HAS_OPENBLAS
  v.openblas = "unknown (a cblas.h without OpenBLAS's version)";
#endif
#if JETPERF_HAS_ONEDNN
  const dnnl_version_t* d = dnnl_version();
  v.onednn = std::to_string(d->major) + "." + std::to_string(d->minor) + "." + std::to_string(d->patch);
#endif
#if JETPERF_HAS_CUDA
  // Only what is loaded: a job that ran no CUDA work did not load the plugin, and asking it for
  // versions would load 170 MB for nothing.
  if (!cuda_plugin_loaded()) {
    v.cuda_not_loaded = "not loaded (no CUDA work since the daemon started)";
  } else if (const auto* plugin = cuda_plugin()) {
    const auto d = plugin->query_device();
    v.cuda_runtime = d.cuda_runtime_version;
    v.cuda_driver = d.cuda_driver_version;
    v.cublas = d.cublas_version;
    if (d.cudnn_version) v.cudnn = d.cudnn_version;
    v.cuda_device = d.count > 0 ? d.name : "none (" + d.error + ")";
  }
#endif
  return v;
}

}  // namespace jetperf::workloads
