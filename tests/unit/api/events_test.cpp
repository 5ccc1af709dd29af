#include <thread>

#include "api_fixture.hpp"
#include "json_schema_check.hpp"

namespace jetperf::test {
namespace {

struct frame {
  std::string event;
  nlohmann::json data;
};

frame parse_frame(const std::string& text) {
  frame f;
  const auto nl = text.find('\n');
  EXPECT_EQ(text.substr(0, 7), "event: ");
  f.event = text.substr(7, nl - 7);
  EXPECT_EQ(text.substr(nl + 1, 6), "data: ");
  f.data = nlohmann::json::parse(text.substr(nl + 7));
  return f;
}

std::vector<frame> drain(api::sse_channel& ch, bool* ended = nullptr) {
  std::vector<std::string> raw;
  const bool done = ch.drain(raw);
  if (ended) *ended = done;
  std::vector<frame> out;
  for (const auto& r : raw) out.push_back(parse_frame(r));
  return out;
}

using events_test = api_fixture;

TEST_F(events_test, queued_job_gets_initial_frames_then_live_events_until_end) {
  const auto id = submit_idle({{"repeats", 4}, {"duration_s", 2}});
  const auto topic = "job:" + std::to_string(id);
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/events");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type, "text/event-stream");
  ASSERT_TRUE(res.stream);
  EXPECT_EQ(hub_.subscriber_count(topic), 1u);

  bool ended = true;
  auto frames = drain(*res.stream, &ended);
  EXPECT_FALSE(ended);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].event, "state");
  EXPECT_EQ(frames[0].data, (nlohmann::json{{"id", id}, {"state", "queued"}}));
  EXPECT_EQ(frames[1].event, "progress");
  EXPECT_EQ(frames[1].data["done"], 0);
  EXPECT_EQ(frames[1].data["total"], 4);
  EXPECT_DOUBLE_EQ(frames[1].data["eta_s"].get<double>(), 8.0);
  const auto doc = contract();
  EXPECT_TRUE(schema_violations(doc, component_schema(doc, "StateEvent"), frames[0].data).empty());
  EXPECT_TRUE(schema_violations(doc, component_schema(doc, "ProgressEvent"), frames[1].data).empty());

  hub_.publish(topic, "point", R"({"id":1,"index":0,"status":"ok"})");
  hub_.publish("job:999", "point", R"({"id":999,"index":0,"status":"ok"})");
  frames = drain(*res.stream, &ended);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].event, "point");
  EXPECT_FALSE(ended);

  // Cancelling publishes state + end; the end frame closes the stream and the subscription.
  service_->cancel(id);
  frames = drain(*res.stream, &ended);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].event, "state");
  EXPECT_EQ(frames[0].data["state"], "cancelled");
  EXPECT_EQ(frames[1].event, "end");
  EXPECT_EQ(frames[1].data["state"], "cancelled");
  EXPECT_TRUE(ended);
  EXPECT_EQ(hub_.subscriber_count(topic), 0u);
  EXPECT_EQ(router().open_streams(), 0u);
}

TEST_F(events_test, finished_job_gets_state_progress_and_end_at_once) {
  const auto id = submit_idle();
  service_->cancel(id);
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/events");
  ASSERT_EQ(res.status, 200);
  bool ended = false;
  auto frames = drain(*res.stream, &ended);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].data["state"], "cancelled");
  EXPECT_EQ(frames[0].data["error"], "cancelled before it started");
  EXPECT_EQ(frames[1].event, "progress");
  EXPECT_EQ(frames[2].event, "end");
  EXPECT_EQ(frames[2].data, (nlohmann::json{{"id", id}, {"state", "cancelled"}}));
  EXPECT_TRUE(ended);
  EXPECT_EQ(hub_.subscriber_count("job:" + std::to_string(id)), 0u);
}

TEST_F(events_test, unknown_job_is_404_and_leaves_no_subscription) {
  auto res = call("GET", "/v1/jobs/31337/events");
  EXPECT_EQ(res.status, 404);
  EXPECT_FALSE(res.stream);
  EXPECT_EQ(hub_.subscriber_count("job:31337"), 0u);
  EXPECT_EQ(call("GET", "/v1/jobs/zero/events").status, 400);
}

TEST_F(events_test, closed_channel_drops_its_subscription) {
  const auto id = submit_idle();
  const auto topic = "job:" + std::to_string(id);
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/events");
  ASSERT_TRUE(res.stream);
  res.stream->close();
  EXPECT_EQ(router().open_streams(), 0u);
  EXPECT_EQ(hub_.subscriber_count(topic), 0u);

  // A channel destroyed by the session: the handler ends itself on the next event.
  auto res2 = call("GET", "/v1/jobs/" + std::to_string(id) + "/events");
  res2.stream.reset();
  EXPECT_EQ(hub_.subscriber_count(topic), 1u);
  hub_.publish(topic, "progress", "{}");
  EXPECT_EQ(hub_.subscriber_count(topic), 0u);
}

TEST_F(events_test, running_job_streams_points_and_end) {
  const auto id = submit_idle({{"repeats", 3}, {"duration_s", 0.02}});
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/events");
  ASSERT_TRUE(res.stream);
  service_->start();
  std::vector<frame> frames;
  bool ended = false;
  for (int i = 0; i < 500 && !ended; ++i) {
    auto more = drain(*res.stream, &ended);
    frames.insert(frames.end(), more.begin(), more.end());
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(ended);
  int points = 0;
  for (const auto& f : frames) points += f.event == "point";
  EXPECT_EQ(points, 3);
  EXPECT_EQ(frames.back().event, "end");
  EXPECT_EQ(frames.back().data["state"], "succeeded");
  service_->stop();
}

}  // namespace
}  // namespace jetperf::test
