#pragma once
// Job states: queued -> running -> succeeded | failed | cancelled | interrupted;
// queued -> cancelled; interrupted -> queued (resume).
// In the store because it persists them by name; jobs (above) drives the state machine.
#include <string>

namespace jetperf::store {

/// `partial`: the job ran to its end but some of its points failed or none was measured (all
/// skipped); `succeeded` means every point was measured or deliberately skipped with a reason
/// and at least one was measured.
enum class job_state { queued, running, succeeded, partial, failed, cancelled, interrupted };

std::string to_string(job_state s);

/// Throws validation_error(field) for an unknown name.
job_state parse_job_state(const std::string& name, const std::string& field = "state");

bool is_terminal(job_state s);

/// Whether the state machine allows from -> to.
bool can_transition(job_state from, job_state to);

}  // namespace jetperf::store
