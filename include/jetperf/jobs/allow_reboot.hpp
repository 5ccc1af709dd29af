#pragma once
// A job's consent to reboots: the spec field `allow_reboot` that every kind sweeping power modes
// declares with the other board axes (board_axis_fields), and how the runner (jobs/job_runner),
// which acts on it (it journals the job, reboots and resumes), reads it from a stored spec.
#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>

namespace jetperf::jobs {

/// allow_reboot: boolean, default false.
const spec_field& allow_reboot_field();

/// Whether a normalized spec lets the runner reboot the board (false when absent: older jobs).
bool allows_reboot(const record& normalized_spec);

}  // namespace jetperf::jobs
