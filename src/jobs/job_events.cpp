#include <jetperf/jobs/job_events.hpp>

namespace jetperf::jobs {

void publish_job_event(event_hub& hub, std::int64_t id, const std::string& event, const nlohmann::json& data) {
  const auto text = data.dump();
  hub.publish("job:" + std::to_string(id), event, text);
  hub.publish("jobs", event, text);
}

}  // namespace jetperf::jobs
