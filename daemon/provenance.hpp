#pragma once
// Where a job's numbers come from, as stored with every job (GET /v1/jobs/{id}, results, exports):
// the board (simulated or real, L4T/JetPack), jetperf's version and commit, the power sensor, the
// sampling the sampler achieved, and the backend libraries' versions.
#include <nlohmann/json.hpp>

#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/telemetry/sampler.hpp>

#include "board_setup.hpp"

namespace jetperf::daemon {

/// `sampler` and `fidelity` may be null. The backend versions are read once, at the first call.
nlohmann::json job_provenance(const board_selection& board, const telemetry::sampler* sampler,
                              const platform::board_fidelity* fidelity);

/// "ina3221 (hwmon)", "ina3221 (iio)", "tegrastats", "nvml", "rapl" or "sysfs" from a power
/// channel's source (a sysfs path or a tool's name).
std::string power_driver_of(const std::string& source);

}  // namespace jetperf::daemon
