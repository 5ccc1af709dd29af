#pragma once
// The job state names under jobs::, for the state machine's callers. The names live in the store
// (store/job_state.hpp), which persists them and sits below jobs.
#include <jetperf/store/job_state.hpp>

namespace jetperf::jobs {

using store::can_transition;
using store::is_terminal;
using store::job_state;
using store::parse_job_state;
using store::to_string;

}  // namespace jetperf::jobs
