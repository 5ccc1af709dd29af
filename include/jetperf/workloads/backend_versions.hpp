#pragma once
// The versions of the libraries this build's backends run on, as loaded at run time: part of
// every job's provenance, since a GFLOP/s figure means little without its BLAS. Typed here;
// api/board_views.hpp makes the provenance's "backends" JSON.
#include <optional>
#include <string>

namespace jetperf::workloads {

/// A library this build lacks is absent. The CUDA part is there only once CUDA work has loaded
/// the plugin (jetperf/workloads/cuda_plugin.hpp); until then cuda_not_loaded says so (asking
/// would load it).
struct backend_versions {
  std::optional<std::string> openblas;  ///< "OpenBLAS 0.3.21 ..." (the library's config string)
  std::optional<std::string> onednn;    ///< "3.0.0"
  std::optional<std::string> cuda_not_loaded;
  std::optional<int> cuda_runtime;
  std::optional<int> cuda_driver;  ///< 0: a CUDA build without a driver
  std::optional<int> cublas;
  std::optional<int> cudnn;        ///< absent when the plugin reports none
  std::optional<std::string> cuda_device;
};

backend_versions loaded_backend_versions();

}  // namespace jetperf::workloads
