#include <jetperf/store/job_state.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {
namespace {

struct state_name {
  job_state state;
  const char* name;
};
constexpr state_name k_state_names[] = {
    {job_state::queued, "queued"},       {job_state::running, "running"},
    {job_state::succeeded, "succeeded"}, {job_state::partial, "partial"},
    {job_state::failed, "failed"},
    {job_state::cancelled, "cancelled"}, {job_state::interrupted, "interrupted"},
};

}  // namespace

std::string to_string(job_state s) {
  for (const auto& n : k_state_names)
    if (n.state == s) return n.name;
  return "unknown";
}

job_state parse_job_state(const std::string& name, const std::string& field) {
  for (const auto& n : k_state_names)
    if (name == n.name) return n.state;
  throw validation_error(field, "unknown job state '" + name +
                                    "' (expected queued, running, succeeded, partial, failed, cancelled or interrupted)");
}

bool is_terminal(job_state s) {
  return s == job_state::succeeded || s == job_state::partial || s == job_state::failed || s == job_state::cancelled ||
         s == job_state::interrupted;
}

bool is_store_failure(const std::string& error) { return error.rfind(k_store_failure_prefix, 0) == 0; }

bool can_transition(job_state from, job_state to, const std::string& error) {
  switch (from) {
    case job_state::queued:
      return to == job_state::running || to == job_state::cancelled;
    case job_state::running:
      return to == job_state::succeeded || to == job_state::partial || to == job_state::failed ||
             to == job_state::cancelled || to == job_state::interrupted;
    case job_state::interrupted:
      // Queued again to resume from its last finished point; running again when the reboot it
      // waited for was refused; interrupted again with a new reason (the board booted elsewhere).
      return to == job_state::queued || to == job_state::running || to == job_state::interrupted;
    case job_state::failed:
      return to == job_state::queued && is_store_failure(error);
    default:
      return false;
  }
}

}  // namespace jetperf::store
