#pragma once
// Job states: queued -> running -> succeeded | partial | failed | cancelled | interrupted;
// queued -> cancelled; interrupted -> queued (resume); failed -> queued only for a job that
// failed because its results could not be stored. The store checks every change against this
// table and writes it in the same transaction (job_store::set_state), so two threads that race
// (a cancel as the runner takes the job) cannot both win.
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

/// Begins the error of a job that failed because the database could not take its results (a
/// full disk): it failed for want of space, not of the board, so it may be resumed.
inline constexpr const char* k_store_failure_prefix = "the database could not be written: ";
bool is_store_failure(const std::string& error);

/// Whether the state machine allows from -> to for a job whose error is `error`.
bool can_transition(job_state from, job_state to, const std::string& error = {});

}  // namespace jetperf::store
