// GET /v1/telemetry, its SSE stream, GET /v1/jobs/{id}/samples and GET /metrics, with a fake
// telemetry_view and samples written through the real sample_store.
#include <chrono>
#include <thread>

#include <jetperf/api/telemetry_feed.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/store/sample_store.hpp>

#include "api_fixture.hpp"
#include "sample_list.hpp"

namespace jetperf::test {
namespace {

class fake_telemetry final : public api::telemetry_view {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"power.total", "W", telemetry::channel_kind::power, "sim"},
            {"clock.gpu", "Hz", telemetry::channel_kind::clock, "/sys/devfreq/gpu/cur_freq"},
            {"temp.GPU", "C", telemetry::channel_kind::temperature, "thermal_zone1"}};
  }
  std::vector<api::channel_reading> latest() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return readings_;
  }
  std::optional<int> total_power_channel() const override { return 0; }
  telemetry::sampler_health health() const override {
    telemetry::sampler_health h;
    h.running = true;
    h.period_s = 0.001;
    h.achieved_rate_hz = 999.5;
    h.jitter_mean_s = 20e-6;
    h.jitter_p99_s = 80e-6;
    h.ticks = 12000;
    h.missed_ticks = 3;
    h.cpu_share = 0.02;
    return h;
  }
  void set_power(double w) {
    std::lock_guard<std::mutex> lock(mutex_);
    readings_[0] = {w, readings_[0].t_ns + 1000};
  }
  telemetry::energy_totals energy() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return energy_;
  }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    return samples_.window(from_ns, to_ns);
  }
  void add_sample(telemetry::sample s) { samples_.add(s); }
  void set_energy(telemetry::energy_totals e) {
    std::lock_guard<std::mutex> lock(mutex_);
    energy_ = std::move(e);
  }

 private:
  telemetry::energy_totals energy_;
  sample_list samples_;
  mutable std::mutex mutex_;
  std::vector<api::channel_reading> readings_{{12.5, 1000}, {828750000.0, 1000}, {std::nullopt, 0}};
};

class telemetry_routes_test : public api_fixture {
 protected:
  api::router& make_telemetry_router(bool require_for_reads = false, bool with_telemetry = true) {
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = k_token;
    s.auth.require_for_reads = require_for_reads;
    s.telemetry = with_telemetry ? &view_ : nullptr;
    s.samples = &samples_;
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }
  void SetUp() override { make_telemetry_router(); }

  fake_telemetry view_;
  store::sample_store samples_{db_};
};

TEST_F(telemetry_routes_test, latest_values_and_health) {
  const auto res = call("GET", "/v1/telemetry");
  ASSERT_EQ(res.status, 200) << res.body;
  const auto j = json_of(res);
  ASSERT_EQ(j["channels"].size(), 3u);
  EXPECT_EQ(j["channels"][0], (nlohmann::json{{"name", "power.total"}, {"unit", "W"}, {"kind", "power"},
                                              {"source", "sim"}, {"value", 12.5}, {"t_ns", 1000}}));
  EXPECT_EQ(j["channels"][1]["kind"], "clock");
  EXPECT_EQ(j["channels"][1]["value"], 828750000.0);
  EXPECT_EQ(j["channels"][2]["kind"], "temperature");
  EXPECT_TRUE(j["channels"][2]["value"].is_null());
  EXPECT_GT(j["t_ns"].get<std::int64_t>(), 0);
  EXPECT_EQ(j["health"]["period_s"], 0.001);
  EXPECT_EQ(j["health"]["achieved_rate_hz"], 999.5);
  EXPECT_EQ(j["health"]["missed_ticks"], 3);
  EXPECT_EQ(j["health"]["jitter_p99_s"], 80e-6);
  EXPECT_EQ(j["health"]["cpu_share"], 0.02);
  EXPECT_EQ(call("GET", "/v1/telemetry?x=1").status, 400);
}

TEST_F(telemetry_routes_test, without_telemetry_is_503) {
  make_telemetry_router(false, false);
  for (const char* target : {"/v1/telemetry", "/v1/telemetry/stream"}) {
    const auto res = call("GET", target);
    ASSERT_EQ(res.status, 503) << target;
    EXPECT_EQ(json_of(res)["error"]["code"], "unavailable");
  }
  // /metrics still answers the job lines.
  const auto res = call("GET", "/metrics");
  ASSERT_EQ(res.status, 200);
  EXPECT_NE(res.body.find("jetperf_jobs_queued 0"), std::string::npos) << res.body;
}

TEST_F(telemetry_routes_test, stream_sends_a_frame_at_once_then_per_interval) {
  auto res = call("GET", "/v1/telemetry/stream?interval_ms=100");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type, "text/event-stream");
  ASSERT_TRUE(res.stream);
  std::vector<std::string> frames;
  EXPECT_FALSE(res.stream->drain(frames));
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].rfind("event: sample\ndata: ", 0), 0u) << frames[0];
  const auto first = nlohmann::json::parse(frames[0].substr(frames[0].find("data: ") + 6));
  EXPECT_EQ(first["channels"][0]["value"], 12.5);
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_topic), 1u);

  // A feed frame sooner than a stream's interval is held back (a 10 s stream); one after it goes
  // out (this 100 ms stream, 60 ms later: half a feed period of slack makes it due after 50 ms).
  auto slow = call("GET", "/v1/telemetry/stream?interval_ms=10000");
  ASSERT_EQ(slow.status, 200);
  frames.clear();
  slow.stream->drain(frames);
  EXPECT_EQ(frames.size(), 1u);
  view_.set_power(20.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  api::telemetry_feed feed(view_, hub_);
  feed.publish_once();
  frames.clear();
  slow.stream->drain(frames);
  EXPECT_TRUE(frames.empty());
  res.stream->drain(frames);
  ASSERT_EQ(frames.size(), 1u);
  const auto second = nlohmann::json::parse(frames[0].substr(frames[0].find("data: ") + 6));
  EXPECT_EQ(second["channels"][0]["value"], 20.0);
  EXPECT_EQ(second["channels"][0]["t_ns"], 2000);
  slow.stream->close();

  // The client goes away: the next frame ends the subscription.
  res.stream->close();
  feed.publish_once();
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_topic), 0u);
  EXPECT_EQ(router().open_streams(), 0u);
}

TEST_F(telemetry_routes_test, feed_thread_drives_the_stream) {
  auto res = call("GET", "/v1/telemetry/stream?interval_ms=100");
  ASSERT_EQ(res.status, 200);
  api::telemetry_feed feed(view_, hub_, std::chrono::milliseconds(20));
  feed.start();
  std::vector<std::string> frames;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (frames.size() < 3 && std::chrono::steady_clock::now() < deadline) {
    res.stream->drain(frames);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  feed.stop();
  EXPECT_GE(frames.size(), 3u);
  res.stream->close();
}

TEST_F(telemetry_routes_test, samples_all_forwards_every_batch_besides_the_snapshots) {
  // A stream without samples=all does not ask for batches: the feed builds none for it.
  auto plain = call("GET", "/v1/telemetry/stream?interval_ms=100");
  ASSERT_EQ(plain.status, 200);
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_samples_topic), 0u);
  auto res = call("GET", "/v1/telemetry/stream?interval_ms=10000&samples=all");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_samples_topic), 1u);
  std::vector<std::string> frames;
  res.stream->drain(frames);
  ASSERT_EQ(frames.size(), 1u);  // the snapshot at once
  EXPECT_EQ(frames[0].rfind("event: sample\n", 0), 0u);

  // Every batch goes out, whatever this stream's snapshot interval (10 s here).
  const std::int64_t now = monotonic_ns();
  api::telemetry_feed feed(view_, hub_);
  view_.add_sample({0, now - 50'000'000, 11.0});
  view_.add_sample({1, now - 50'000'000, 9e8});
  feed.publish_samples_once(now);
  view_.add_sample({0, now + 10'000'000, 12.0});
  feed.publish_samples_once(now + 20'000'000);
  feed.publish_once();  // a snapshot sooner than 10 s: held back
  frames.clear();
  res.stream->drain(frames);
  ASSERT_EQ(frames.size(), 2u);
  ASSERT_EQ(frames[0].rfind("event: samples\ndata: ", 0), 0u) << frames[0];
  const auto first = nlohmann::json::parse(frames[0].substr(frames[0].find("data: ") + 6));
  EXPECT_EQ(first["channels"], nlohmann::json({"power.total", "clock.gpu", "temp.GPU"}));
  EXPECT_EQ(first["samples"], nlohmann::json::parse("[[0, 0, 11.0], [0, 1, 9e8]]"));
  EXPECT_EQ(first["t0_ns"], now - 50'000'000);
  const auto second = nlohmann::json::parse(frames[1].substr(frames[1].find("data: ") + 6));
  EXPECT_EQ(second["samples"], nlohmann::json::parse("[[0, 0, 12.0]]"));
  EXPECT_EQ(second["dropped"], 0);
  frames.clear();
  plain.stream->drain(frames);
  for (const auto& f : frames) EXPECT_EQ(f.rfind("event: sample\n", 0), 0u) << f;

  // Gone clients: the next batch and snapshot end both subscriptions.
  res.stream->close();
  plain.stream->close();
  feed.publish_samples_once(now + 30'000'000);
  feed.publish_once();
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_samples_topic), 0u);
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_topic), 0u);
  EXPECT_EQ(router().open_streams(), 0u);
}

TEST_F(telemetry_routes_test, stream_interval_is_validated) {
  for (const char* q : {"?interval_ms=99", "?interval_ms=10001", "?interval_ms=abc", "?every=1", "?samples=some",
                        "?samples=", "?samples=ALL"}) {
    const auto res = call("GET", std::string("/v1/telemetry/stream") + q);
    ASSERT_EQ(res.status, 400) << q;
    EXPECT_FALSE(res.stream);
  }
  EXPECT_EQ(json_of(call("GET", "/v1/telemetry/stream?interval_ms=5"))["error"]["field"], "interval_ms");
  EXPECT_EQ(json_of(call("GET", "/v1/telemetry/stream?samples=1"))["error"]["field"], "samples");
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_topic), 0u);
  EXPECT_EQ(hub_.subscriber_count(api::k_telemetry_samples_topic), 0u);
}

TEST_F(telemetry_routes_test, job_samples_json_csv_and_filters) {
  const auto id = submit_idle();
  const auto other = submit_idle();
  const auto power = samples_.channel_id("power.total", "W", "sim");
  const auto gpu = samples_.channel_id("clock.gpu", "Hz", "sysfs");
  samples_.insert(id, {{power, 100, 10.5}, {gpu, 100, 1e8}, {power, 200, 11.25}, {gpu, 200, 2e8}, {power, 300, 12.0}});
  samples_.insert(other, {{power, 150, 99.0}});

  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/samples");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  EXPECT_EQ(j["job_id"], id);
  ASSERT_EQ(j["samples"].size(), 5u);
  EXPECT_EQ(j["samples"][0], (nlohmann::json{{"channel", "power.total"}, {"t_ns", 100}, {"value", 10.5}}));
  EXPECT_EQ(j["samples"][1]["channel"], "clock.gpu");
  EXPECT_EQ(j["channels"].size(), 2u);

  res = call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?channel=power.total&from=150&to=300");
  j = json_of(res);
  ASSERT_EQ(j["samples"].size(), 2u);
  EXPECT_EQ(j["samples"][0]["value"], 11.25);
  EXPECT_EQ(j["samples"][1]["t_ns"], 300);
  ASSERT_EQ(j["channels"].size(), 1u);
  EXPECT_EQ(j["channels"][0], (nlohmann::json{{"name", "power.total"}, {"unit", "W"}, {"source", "sim"}}));

  res = call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?format=csv&to=100");
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(res.content_type.rfind("text/csv", 0), 0u);
  EXPECT_EQ(res.body, "channel,t_ns,value\r\npower.total,100,10.5\r\nclock.gpu,100,100000000.0\r\n");

  auto e = json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?channel=temp.X"));
  EXPECT_EQ(e["error"]["field"], "channel");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("power.total"), std::string::npos);
  EXPECT_EQ(call("GET", "/v1/jobs/99/samples").status, 404);
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/1/samples?format=xml"))["error"]["field"], "format");
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/1/samples?from=5&to=4"))["error"]["field"], "to");
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/1/samples?from=-1"))["error"]["field"], "from");
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/1/samples?limit=0"))["error"]["field"], "limit");
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/1/samples?after=x"))["error"]["field"], "after");
}

TEST_F(telemetry_routes_test, samples_come_in_pages_that_join_up_exactly) {
  const auto id = submit_idle();
  const auto power = samples_.channel_id("power.total", "W", "sim");
  const auto gpu = samples_.channel_id("clock.gpu", "Hz", "sysfs");
  // 2 x 1000 samples in ten inserts (chunks that interleave in time).
  for (int batch = 0; batch < 10; ++batch) {
    std::vector<store::sample_row> rows;
    for (int i = 0; i < 100; ++i) {
      const std::int64_t t = 1000 + 10 * (batch * 100 + i);
      rows.push_back({power, t, 1.0 * t});
      rows.push_back({gpu, t, 2.0 * t});
    }
    samples_.insert(id, rows);
  }
  std::vector<nlohmann::json> all;
  std::string after;
  int pages = 0;
  for (; pages < 100; ++pages) {
    auto j = json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?limit=300" + (after.empty() ? "" : "&after=" + after)));
    ASSERT_LE(j["samples"].size(), 300u);
    for (auto& s : j["samples"]) all.push_back(s);
    if (j["next_after"].is_null()) break;
    after = j["next_after"].get<std::string>();
  }
  EXPECT_EQ(pages, 6);  // 2000 samples, 300 a page
  ASSERT_EQ(all.size(), 2000u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i]["t_ns"], 1000 + 10 * static_cast<std::int64_t>(i / 2)) << i;
    EXPECT_EQ(all[i]["channel"], i % 2 ? "clock.gpu" : "power.total") << i;
  }
  // CSV pages carry the cursor in a header.
  const auto csv = call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?format=csv&limit=3");
  EXPECT_EQ(csv.body, "channel,t_ns,value\r\npower.total,1000,1000.0\r\nclock.gpu,1000,2000.0\r\npower.total,1010,1010.0\r\n");
  bool has_cursor = false;
  for (const auto& h : csv.headers) has_cursor = has_cursor || (h.first == "X-Next-After" && !h.second.empty());
  EXPECT_TRUE(has_cursor);
}

TEST_F(telemetry_routes_test, buckets_summarise_any_length_with_min_max_and_mean) {
  const auto id = submit_idle();
  const auto power = samples_.channel_id("power.total", "W", "sim");
  std::vector<store::sample_row> rows;
  // One sample per ms for 10 s: 1 W, with a 5 W spike in the 4th second.
  for (std::int64_t ms = 0; ms < 10000; ++ms) rows.push_back({power, ms * 1'000'000, ms == 3500 ? 5.0 : 1.0});
  samples_.insert(id, rows);
  const auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?bucket_ms=1000");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  ASSERT_EQ(j["buckets"].size(), 10u) << j.dump();
  EXPECT_EQ(j["bucket_ms"], 1000);
  const auto& spike = j["buckets"][3];
  EXPECT_EQ(spike["t_ns"], 3'000'000'000LL);
  EXPECT_EQ(spike["count"], 1000);
  EXPECT_DOUBLE_EQ(spike["max"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(spike["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(spike["mean"].get<double>(), 1.004);
  // Too many buckets for one answer (200 s of 1 ms buckets): refused before a sample is read.
  samples_.insert(id, {{power, 200'000'000'000LL, 1.0}});
  const auto many = call("GET", "/v1/jobs/" + std::to_string(id) + "/samples?bucket_ms=1");
  EXPECT_EQ(many.status, 400) << many.body;
  EXPECT_EQ(json_of(many)["error"]["field"], "bucket_ms") << many.body;
}

TEST_F(telemetry_routes_test, metrics_are_prometheus_text_with_job_lines) {
  submit_idle();
  submit_idle();
  const auto res = call("GET", "/metrics");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type.rfind("text/plain; version=0.0.4", 0), 0u);
  const auto& t = res.body;
  EXPECT_NE(t.find("jetperf_power_total_watts 12.5"), std::string::npos) << t;
  EXPECT_NE(t.find("jetperf_clock_hz{domain="), std::string::npos) << t;
  EXPECT_NE(t.find("jetperf_sampler_missed_ticks_total 3"), std::string::npos) << t;
  EXPECT_NE(t.find("jetperf_job_running 0"), std::string::npos) << t;
  EXPECT_NE(t.find("jetperf_jobs_queued 2"), std::string::npos) << t;
  EXPECT_NE(t.find("# TYPE jetperf_jobs_queued gauge"), std::string::npos) << t;
  // The temperature was never read: no line with a value for it.
  EXPECT_EQ(t.find("jetperf_temperature_celsius{"), std::string::npos) << t;
}

TEST_F(telemetry_routes_test, metrics_label_the_meters_jobs_with_their_kind_and_progress) {
  const auto finished = submit_idle();
  const auto queued = submit_idle();
  telemetry::energy_totals e;
  e.channel_joules = {123.5, 0, 0};
  e.total_channel = 0;
  e.last_finished = telemetry::job_energy{finished, 40.0};
  // A job the store does not know (deleted) keeps its counter, without kind or progress.
  e.running = telemetry::job_energy{999, 2.5};
  view_.set_energy(e);
  const auto res = call("GET", "/metrics");
  ASSERT_EQ(res.status, 200) << res.body;
  const auto& t = res.body;
  EXPECT_NE(t.find("jetperf_energy_joules_total 123.5\n"), std::string::npos) << t;
  EXPECT_NE(t.find("jetperf_job_energy_joules_total{job_id=\"" + std::to_string(finished) + "\",kind=\"idle\"} 40\n"),
            std::string::npos)
      << t;
  // Not started: 0 of its points done.
  EXPECT_NE(t.find("jetperf_job_progress_ratio{job_id=\"" + std::to_string(finished) + "\",kind=\"idle\"} 0\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("jetperf_job_energy_joules_total{job_id=\"999\",kind=\"\"} 2.5\n"), std::string::npos) << t;
  // Only the meter's two jobs: the queued one has no series.
  EXPECT_EQ(t.find("job_id=\"" + std::to_string(queued) + "\""), std::string::npos) << t;
}

TEST_F(telemetry_routes_test, reads_follow_the_read_auth_rule) {
  make_telemetry_router(true);
  for (const char* target : {"/metrics", "/v1/telemetry", "/v1/telemetry/stream", "/v1/jobs/1/samples"})
    EXPECT_EQ(router().handle(request("GET", target, "", false)).status, 401) << target;
  EXPECT_EQ(router().handle(request("GET", "/metrics", "", true)).status, 200);
}

}  // namespace
}  // namespace jetperf::test
