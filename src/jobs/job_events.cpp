#include <jetperf/jobs/job_events.hpp>

#include <jetperf/common/cell_text.hpp>

namespace jetperf::jobs {

void publish_job_event(event_hub& hub, std::int64_t id, const std::string& event, const record& data) {
  const auto text = json_text(data);
  hub.publish("job:" + std::to_string(id), event, text);
  hub.publish("jobs", event, text);
}

}  // namespace jetperf::jobs
