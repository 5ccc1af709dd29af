#pragma once
// A job's consent to reboots: the spec field `allow_reboot` that every kind sweeping power modes
// declares (through measure::board_axis_fields), and how the runner reads it from a stored spec.
// Declared here because the runner acts on it: it journals the job, reboots and resumes.
#include <nlohmann/json.hpp>

#include <jetperf/common/spec_fields.hpp>

namespace jetperf::jobs {

/// allow_reboot: boolean, default false.
const spec_field& allow_reboot_field();

/// Whether a normalized spec lets the runner reboot the board (false when absent: older jobs).
bool allows_reboot(const nlohmann::json& normalized_spec);

}  // namespace jetperf::jobs
