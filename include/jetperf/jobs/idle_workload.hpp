#pragma once
// The `idle` kind: measures the board at rest for `duration_s`, one point per repeat. It is the
// baseline every power figure is compared with, and it exercises the whole job pipeline.
#include <memory>

#include <jetperf/jobs/workload.hpp>

namespace jetperf::jobs {

std::unique_ptr<workload> make_idle_workload();

}  // namespace jetperf::jobs
