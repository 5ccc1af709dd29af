#pragma once
// What a job tells its watchers: each event goes to the job's own topic and to "jobs", the one
// the page's list and the CLI's watch follow.
#include <cstdint>
#include <string>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/event_hub.hpp>

namespace jetperf::jobs {

/// Publishes `event` with `data` (as JSON text) on "job:<id>" and on "jobs".
void publish_job_event(event_hub& hub, std::int64_t id, const std::string& event, const record& data);

}  // namespace jetperf::jobs
