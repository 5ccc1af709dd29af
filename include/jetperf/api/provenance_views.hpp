#pragma once
// The parts of a job's provenance that lower layers answer in structs: what a simulated board
// simulates, and the backends' library versions. The daemon assembles the provenance.
#include <nlohmann/json.hpp>

#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/workloads/backend_versions.hpp>

namespace jetperf::api {

/// {"simulated","power","speed_simulated","speed"[,"speed_mechanism"][,"last_refusal"]};
/// a real board (simulated false) is {"simulated": false} alone.
nlohmann::json fidelity_json(const platform::fidelity_summary& fidelity);
/// {"openblas","onednn","cuda","cuda_runtime","cuda_driver","cublas","cudnn","cuda_device"}, each
/// only when known ("cuda": "not loaded (...)" until CUDA work has loaded the plugin).
nlohmann::json backend_versions_json(const workloads::backend_versions& versions);

}  // namespace jetperf::api
