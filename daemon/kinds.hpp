#pragma once
// The job kinds this daemon runs: one line per kind in kinds.cpp.
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/kinds/command/command_policy.hpp>

namespace jetperf::daemon {

void register_kinds(jobs::workload_registry& registry, const kinds::command_policy& command);

}  // namespace jetperf::daemon
