#pragma once
// The versions of the libraries this build's backends run on, as loaded at run time: part of
// every job's provenance, since a GFLOP/s figure means little without its BLAS.
#include <nlohmann/json.hpp>

namespace jetperf::workloads {

/// {"openblas": "OpenBLAS 0.3.21 ...", "onednn": "3.0.0", "cuda_runtime": 13000,
/// "cuda_driver": 13000, "cublas": ..., "cudnn": ..., "cuda_device": "..."}; a library this
/// build lacks is absent, a CUDA build without a driver has cuda_driver 0. The CUDA part only
/// once CUDA work has loaded the plugin (jetperf/workloads/cuda_plugin.hpp); until then
/// "cuda": "not loaded (...)": asking would load it.
nlohmann::json backend_versions();

}  // namespace jetperf::workloads
