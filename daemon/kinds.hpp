#pragma once
// The job kinds this daemon runs: one line per kind in kinds.cpp.
#include <jetperf/jobs/workload_registry.hpp>

namespace jetperf::daemon {

void register_kinds(jobs::workload_registry& registry);

}  // namespace jetperf::daemon
