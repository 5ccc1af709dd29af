#include <atomic>
#include <memory>

#include <jetperf/api/job_view.hpp>
#include <jetperf/api/json_body.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/job_state.hpp>

namespace jetperf::api {

namespace {

nlohmann::json state_frame(const store::job_record& job) {
  nlohmann::json data = {{"id", job.id}, {"state", jobs::to_string(job.state)}};
  if (!job.error.empty()) data["error"] = job.error;
  return data;
}

nlohmann::json progress_frame(const store::job_record& job) {
  // The job view already knows the ETA rule (elapsed per point while running, estimate queued).
  const auto view = job_json(job);
  const auto& progress = view.at("progress");
  nlohmann::json eta = progress.at("eta_s");
  if (eta.is_null()) eta = 0.0;
  nlohmann::json frame = {{"id", job.id}, {"done", job.points_done}, {"total", job.points_total}, {"eta_s", eta}};
  if (progress.contains("eta_basis")) frame["eta_basis"] = progress["eta_basis"];
  return frame;
}

http_response events(const route_request& r) {
  r.query.reject_unknown({});
  const auto id = r.id_param();
  auto channel = std::make_shared<sse_channel>();
  auto ended = std::make_shared<std::atomic<bool>>(false);
  std::weak_ptr<sse_channel> weak = channel;

  // Subscribe before reading the job, so that no event between the read and the subscription
  // is lost; a duplicate state frame is harmless, a missing "end" is not.
  auto subscription = r.svc.hub->subscribe(
      "job:" + std::to_string(id), [weak, ended](const std::string& event, const std::string& data) {
        if (ended->load()) return false;
        auto ch = weak.lock();
        if (!ch || ch->closed()) return false;
        const bool last = event == "end";
        ch->push(event, data, last);
        if (last) ended->store(true);
        return !last;
      });

  const auto job = r.svc.jobs->get(id);  // not_found ends the subscription with this scope
  channel->push("state", dump_json(state_frame(job)));
  channel->push("progress", dump_json(progress_frame(job)));
  if (jobs::is_terminal(job.state)) {
    channel->push("end", dump_json({{"id", job.id}, {"state", jobs::to_string(job.state)}}), true);
    ended->store(true);
  } else {
    r.streams.keep(weak, ended, std::move(subscription));
  }

  http_response res;
  res.status = 200;
  res.content_type = "text/event-stream";
  res.headers.emplace_back("Cache-Control", "no-cache");
  res.stream = std::move(channel);
  return res;
}

}  // namespace

void register_event_routes(route_table& table) { table.add("GET", "/v1/jobs/{id}/events", events); }

}  // namespace jetperf::api
