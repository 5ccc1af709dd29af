#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <iostream>
#include <thread>

#include "support/json_workload.hpp"
#include "support/json_kind.hpp"
#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// A workload whose points take `sleep_ms` and fail where the spec says so.
class scripted_workload final : public test::json_kind {
 public:
  std::string kind() const { return "scripted"; }
  json parse(const record& spec, const platform::board_offer&) const {
    const auto list_or_empty = [&spec](const char* key) {
      const auto* c = spec.find(key);
      return c ? jetperf::to_json(*c) : json::array();
    };
    jetperf::reject_unknown_fields(spec, {"points", "sleep_ms", "estimate_ms", "expand_ms", "fail", "exit", "skip", "no_power", "negative", "spans"});
    const auto sleep_ms = jetperf::integer_field(spec, "sleep_ms", 0, 100000, 0);
    json out = {{"points", jetperf::integer_field(spec, "points", 0, 200000, 3)},
                {"sleep_ms", sleep_ms},
                {"estimate_ms", jetperf::integer_field(spec, "estimate_ms", 0, 100000, sleep_ms)},
                {"expand_ms", jetperf::integer_field(spec, "expand_ms", 0, 100000, 0)},
                {"fail", list_or_empty("fail")},
                {"exit", list_or_empty("exit")},
                {"skip", list_or_empty("skip")},
                {"no_power", list_or_empty("no_power")},
                {"negative", list_or_empty("negative")},
                {"spans", jetperf::integer_field(spec, "spans", 0, 100000, 0)}};
    return out;
  }
  // Its main metrics: a value, and a power its points leave empty where the spec says so.
  const column_table& columns() const {
    static const column_table table{{{"value", column_type::integer, column_role::metric, "", "", true, true},
                                     {"watts", column_type::number, column_role::metric, "W", "", true, true}},
                                    false,
                                    {}};
    return table;
  }
  std::vector<json> expand(const json& spec) const {
    // A slow expansion (a big sweep) is where the runner stands between taking a job from the
    // queue and starting it.
    std::this_thread::sleep_for(std::chrono::milliseconds(spec.value("expand_ms", 0)));
    std::vector<json> p;
    for (int i = 0; i < spec["points"].get<int>(); ++i) p.push_back({{"i", i}});
    return p;
  }
  std::vector<double> estimate_points_s(const json& spec, const std::vector<json>& points,
                                        const measure::estimate_context&) const {
    return std::vector<double>(points.size(), spec["estimate_ms"].get<double>() / 1000.0);
  }
  measure::point_result run_point(measure::point_context& ctx, const json& spec, const json& point) {
    // Spans first (a command run's markers, recorded before the point ends), then the sleep.
    for (int i = 0; i < spec.value("spans", 0); ++i) ctx.record("marks", "m", i, i, {{"i", i}});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(spec["sleep_ms"].get<int>());
    while (std::chrono::steady_clock::now() < deadline && !ctx.cancelled()) std::this_thread::sleep_for(1ms);
    for (const auto& f : spec["fail"])
      if (f == point["i"]) throw std::runtime_error("point " + std::to_string(f.get<int>()) + " exploded");
    measure::point_result r;
    // A failed row returned, not thrown: a command run that exited non-zero.
    for (const auto& k : spec["exit"])
      if (k == point["i"]) {
        r.status = "failed";
        r.metrics = row_of(nlohmann::json{{"error", "exit status 3"}});
        return r;
      }
    for (const auto& k : spec["skip"])
      if (k == point["i"]) {
        r.status = "skipped";
        r.metrics = row_of(nlohmann::json{{"reason", "not on this board"}});
        return r;
      }
    r.metrics = row_of(nlohmann::json{{"value", point["i"].get<int>() * 10}, {"watts", 5.0}});
    for (const auto& k : spec.value("no_power", json::array()))
      if (k == point["i"]) r.metrics.put("watts", nullptr);
    for (const auto& k : spec.value("negative", json::array()))
      if (k == point["i"]) r.metrics.put("watts", -2.0);
    return r;
  }
  cell summarize(const std::vector<jobs::point_row>& points) const {
    return record{{"points_seen", points.size()}};
  }
};

class recording_board final : public platform::board_settings {
 public:
  platform::board_offer offered() const override { return {}; }
  void arm(std::int64_t job_id) override { armed.push_back(job_id); }
  platform::board_setting apply(const platform::board_setting& s) override { return s; }
  void restore() override { ++restores; }
  std::vector<std::int64_t> armed;
  int restores = 0;
};

struct fixture {
  test::temp_dir dir;
  std::unique_ptr<store::database> db;
  jobs::workload_registry registry;
  event_hub hub;
  recording_board board;
  std::unique_ptr<jobs::job_service> service;

  explicit fixture(jobs::job_service_options opts = {}) {
    registry.add(jobs::make_workload(scripted_workload{}));
    open(opts);
  }
  void open(jobs::job_service_options opts = {}) {
    service.reset();
    db.reset();
    db = std::make_unique<store::database>(dir.file("jetperf.db"));
    service = std::make_unique<jobs::job_service>(*db, registry, hub, &board, nullptr, opts);
  }
  store::job_record wait_terminal(std::int64_t id, std::chrono::seconds limit = 20s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      auto j = service->get(id);
      if (jobs::is_terminal(j.state) || std::chrono::steady_clock::now() > until) return j;
      std::this_thread::sleep_for(5ms);
    }
  }
  void wait_running(std::int64_t id) {
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (service->get(id).state != jobs::job_state::running && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(2ms);
  }
};

}  // namespace

TEST(job_service, runs_a_job_to_success_and_stores_its_points) {
  fixture f;
  std::vector<std::string> events;
  std::mutex m;
  auto sub = f.hub.subscribe("job:1", [&](const std::string& e, const std::string&) {
    std::lock_guard<std::mutex> lock(m);
    events.push_back(e);
    return true;
  });
  f.service->start();
  auto job = f.service->submit("scripted", jetperf::test::spec_of({{"points", 3}}), {"t1"});
  EXPECT_EQ(job.id, 1);
  EXPECT_EQ(job.points_total, 3);
  auto done = f.wait_terminal(job.id);
  ASSERT_EQ(done.state, jobs::job_state::succeeded);
  EXPECT_EQ(done.points_done, 3);
  EXPECT_EQ(done.summary["points_seen"], 3);
  auto points = f.service->points(job.id);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2].metrics["value"], 20);
  EXPECT_EQ(points[2].status, "ok");
  EXPECT_EQ(f.board.armed, std::vector<std::int64_t>{1});
  EXPECT_EQ(f.board.restores, 1);
  // The state is stored before the end event is published: wait for the event instead of racing
  // it (under qemu the gap is long enough to see).
  const auto ended = [&] {
    std::lock_guard<std::mutex> lock(m);
    return !events.empty() && events.back() == "end";
  };
  for (int i = 0; i < 2000 && !ended(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::lock_guard<std::mutex> lock(m);
  ASSERT_FALSE(events.empty());
  std::string all;
  for (const auto& e : events) all += e + " ";
  EXPECT_EQ(events.back(), "end") << all;
  EXPECT_EQ(std::count(events.begin(), events.end(), "progress"), 3);
}

TEST(job_service, invalid_spec_creates_no_job) {
  fixture f;
  EXPECT_THROW(f.service->submit("scripted", jetperf::test::spec_of({{"points", "x"}}), {}), validation_error);
  EXPECT_THROW(f.service->submit("nope", jetperf::test::spec_of(json::object()), {}), validation_error);
  try {
    f.service->submit("scripted", jetperf::test::spec_of({{"points", 0}}), {});
    FAIL();
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "spec");
    EXPECT_EQ(e.code(), "empty_sweep");
  }
  try {
    f.service->submit("scripted", jetperf::test::spec_of({{"points", 100001}}), {});
    FAIL();
  } catch (const validation_error& e) {
    EXPECT_EQ(e.code(), "too_many_points");
  }
  std::int64_t total = -1;
  f.service->list({}, &total);
  EXPECT_EQ(total, 0);
}

TEST(job_service, a_failing_point_is_recorded_and_the_job_goes_on) {
  fixture f;
  f.service->start();
  auto some = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 3}, {"fail", {1}}}), {}).id);
  // A job that ran to its end with a failed point is partial, never succeeded.
  EXPECT_EQ(some.state, jobs::job_state::partial);
  EXPECT_EQ(some.error, "1 of 3 points failed (most often: point 1 exploded)");
  EXPECT_EQ(some.summary["points"]["ok"], 2);
  EXPECT_EQ(some.summary["points"]["failed"], 1);
  EXPECT_EQ(some.summary["points"]["fail_reasons"]["point 1 exploded"], 1);
  auto points = f.service->points(some.id);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[1].status, "failed");
  EXPECT_EQ(points[1].metrics["error"], "point 1 exploded");
  auto all = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"fail", {0, 1}}}), {}).id);
  EXPECT_EQ(all.state, jobs::job_state::failed);
  EXPECT_EQ(all.error, "point 1 exploded");
}

// A kind's own failed rows (a command whose every run exited non-zero) leave the runner no
// exception to quote: the failed job says why from its points, as a partial one does.
TEST(job_service, a_job_whose_every_point_returned_failed_says_why) {
  fixture f;
  f.service->start();
  auto all = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"exit", {0, 1}}}), {}).id);
  EXPECT_EQ(all.state, jobs::job_state::failed);
  EXPECT_EQ(all.error, "2 of 2 points failed (most often: exit status 3)");
  auto some = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"exit", {1}}}), {}).id);
  EXPECT_EQ(some.state, jobs::job_state::partial);
  EXPECT_EQ(some.error, "1 of 2 points failed (most often: exit status 3)");
}

TEST(job_service, a_skipped_point_makes_the_job_partial_and_only_skips_fail_it) {
  fixture f;
  f.service->start();
  auto one = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 3}, {"skip", {2}}}), {}).id);
  // A planned point that has no result is a shortfall, whatever its reason: the dry run lists
  // the skips to come, so a spec can leave them out.
  EXPECT_EQ(one.state, jobs::job_state::partial);
  EXPECT_EQ(one.error,
            "1 of 3 points lack their main metrics or did not run: 1 skipped (most often skipped: not on this board)");
  EXPECT_EQ(one.summary["points"]["skipped"], 1);
  EXPECT_EQ(one.summary["points"]["skip_reasons"]["not on this board"], 1);
  auto none = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"skip", {0, 1}}}), {}).id);
  EXPECT_EQ(none.state, jobs::job_state::failed);
  EXPECT_EQ(none.error, "no point was measured: all 2 were skipped (most often: not on this board)");
  EXPECT_EQ(none.summary["points"]["ok"], 0);
}

// The example of a job that "succeeded" with empty power: a point that ran without its main
// metric is no_power, not ok, and the job says so in its state, its error and its summary.
TEST(job_service, a_point_without_its_main_metrics_is_not_ok_and_the_job_is_partial) {
  fixture f;
  f.service->start();
  auto job = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 4}, {"no_power", {1}}, {"skip", {3}}}), {}).id);
  EXPECT_EQ(job.state, jobs::job_state::partial);
  EXPECT_EQ(job.error, "2 of 4 points lack their main metrics or did not run: 1 skipped, 1 no_power (most often "
                       "skipped: not on this board)");
  EXPECT_EQ(job.summary["points"]["ok"], 2);
  EXPECT_EQ(job.summary["points"]["no_power"], 1);
  EXPECT_EQ(job.summary["points"]["unresolvable"], 0);
  const auto points = f.service->points(job.id);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].status, "ok");
  EXPECT_EQ(points[1].status, "no_power");
  // Every point without its power: the job measured nothing it was asked for.
  auto none = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"no_power", {0, 1}}}), {}).id);
  EXPECT_EQ(none.state, jobs::job_state::failed);
  EXPECT_EQ(none.error, "2 of 2 points lack their main metrics or did not run: 2 no_power");
}

// A figure past a physical bound (a power below zero) is a measurement gone wrong: the runner
// checks every kind's rows, the point is implausible with the bound named, the job partial, and
// the summary counts it and says why in its caveats.
TEST(job_service, a_point_with_a_figure_past_a_physical_bound_is_implausible_and_the_job_partial) {
  fixture f;
  f.service->start();
  auto job = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 3}, {"negative", {1}}}), {}).id);
  EXPECT_EQ(job.state, jobs::job_state::partial);
  EXPECT_EQ(job.error, "1 of 3 points lack their main metrics, broke a physical bound or did not run: 1 implausible");
  EXPECT_EQ(job.summary["points"]["ok"], 2);
  EXPECT_EQ(job.summary["points"]["implausible"], 1);
  EXPECT_EQ(job.summary["points"]["implausible_bounds"], (json{{"power_negative", 1}}));
  ASSERT_EQ(job.summary["caveats"].size(), 1u) << job.summary.dump();
  EXPECT_EQ(job.summary["caveats"][0],
            "1 of 3 measured points implausible: a figure broke a physical bound (power_negative on 1), so it is a "
            "measurement gone wrong, not a result; the verdicts (most efficient, compare) leave them out");
  const auto points = f.service->points(job.id);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].status, "ok");
  EXPECT_FALSE(points[0].metrics.contains("implausible"));
  EXPECT_EQ(points[1].status, "implausible");
  EXPECT_EQ(points[1].metrics["implausible"], (json{{"power_negative", "watts -2 W < 0 W"}}));
}

TEST(job_service, stores_the_provenance_when_the_job_starts_and_when_it_ends) {
  std::atomic<int> calls{0};
  jobs::job_service_options o;
  o.provenance = [&calls] { return jetperf::cell(jetperf::record{{"board", "sim:test"}, {"call", ++calls}}); };
  fixture f(o);
  f.service->start();
  auto job = f.wait_terminal(f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}}), {}).id);
  ASSERT_EQ(job.state, jobs::job_state::succeeded);
  EXPECT_EQ(job.provenance["board"], "sim:test");
  // The second record (at the end) carries what the job's sampling achieved.
  EXPECT_EQ(job.provenance["call"], 2);
  EXPECT_EQ(calls.load(), 2);
}

TEST(job_service, cancels_queued_and_running_jobs_and_refuses_finished_ones) {
  fixture f;
  f.service->start();
  // Its points sleep far longer than the test runs: only the cancel can end the job.
  auto running = f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"sleep_ms", 100000}}), {});
  auto queued = f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}}), {});
  f.wait_running(running.id);
  std::atomic<bool> ended_cancelled{false};
  const auto topic = "job:" + std::to_string(running.id);
  auto watch = f.hub.subscribe(topic, [&](const std::string& event, const std::string& data) {
    if (event == "end" && json::parse(data)["state"] == "cancelled") ended_cancelled = true;
    return true;
  });
  EXPECT_EQ(f.service->cancel(queued.id).state, jobs::job_state::cancelled);
  // The answer shows the final state: the runner stopped the point it was in.
  EXPECT_EQ(f.service->cancel(running.id).state, jobs::job_state::cancelled);
  EXPECT_TRUE(test::eventually([&] { return ended_cancelled.load(); }));
  EXPECT_EQ(f.service->get(running.id).error, "cancelled while running");
  EXPECT_THROW(f.service->cancel(running.id), conflict);
  EXPECT_THROW(f.service->cancel(999), not_found);
  EXPECT_EQ(f.service->points(running.id).size(), 0u);
  EXPECT_EQ(f.board.restores, 1);
}

TEST(job_service, a_point_with_more_spans_than_it_holds_stores_them_all_once_even_after_a_resume) {
  fixture f;
  f.service->start();
  // 10 000 spans, then a long sleep: the spans past 4096 are stored before the point ends.
  auto job = f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}, {"sleep_ms", 60000}, {"spans", 10000}}), {});
  store::timeline_store timeline(*f.db);
  store::timeline_query marks;  // point 0's spans: its marks alone until it ends
  marks.job_id = job.id;
  marks.point_index = 0;
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (timeline.count(marks) < 8192 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(2ms);
  EXPECT_EQ(timeline.count(marks), 8192);
  f.service->stop();
  EXPECT_EQ(f.service->get(job.id).state, jobs::job_state::interrupted);

  f.open();
  f.service->start();
  f.service->resume(job.id);
  // The point measures again; what it stored of its spans the first time is gone.
  store::timeline_store reopened(*f.db);
  const auto again = std::chrono::steady_clock::now() + 20s;
  while (f.service->get(job.id).state != jobs::job_state::running && std::chrono::steady_clock::now() < again)
    std::this_thread::sleep_for(2ms);
  while (reopened.count(marks) < 8192 && std::chrono::steady_clock::now() < again) std::this_thread::sleep_for(2ms);
  std::this_thread::sleep_for(50ms);  // the spans it holds stay held: nothing more comes
  EXPECT_EQ(reopened.count(marks), 8192);
  f.service->cancel(job.id);
}

TEST(job_service, all_the_spans_of_a_point_are_stored_once) {
  fixture f;
  f.service->start();
  auto job = f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}, {"spans", 5000}}), {});
  EXPECT_EQ(f.wait_terminal(job.id).state, jobs::job_state::succeeded);
  store::timeline_query q;
  q.job_id = job.id;
  std::map<std::int64_t, int> marks;
  for (const auto& s : store::timeline_store(*f.db).spans(q))
    if (s.track == "marks") ++marks[s.args["i"].get<std::int64_t>() + 5000 * s.point_index.value_or(-100)];
  EXPECT_EQ(marks.size(), 10000u);
  for (const auto& [key, n] : marks) EXPECT_EQ(n, 1) << key;
}

TEST(job_service, shutdown_interrupts_and_resume_continues_after_the_last_point) {
  fixture f;
  f.service->start();
  auto job = f.service->submit("scripted", jetperf::test::spec_of({{"points", 4}, {"sleep_ms", 150}}), {});
  auto queued = f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}}), {});
  // Let two points finish, then stop the daemon's service.
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (f.service->get(job.id).points_done < 2 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(2ms);
  f.service->stop();
  auto stopped = f.service->get(job.id);
  EXPECT_EQ(stopped.state, jobs::job_state::interrupted);
  EXPECT_GE(stopped.points_done, 2);
  EXPECT_EQ(f.service->get(queued.id).state, jobs::job_state::queued);

  f.open();
  f.service->start();
  EXPECT_EQ(f.wait_terminal(queued.id).state, jobs::job_state::succeeded);
  EXPECT_EQ(f.service->get(job.id).state, jobs::job_state::interrupted);
  EXPECT_THROW(f.service->resume(queued.id), conflict);
  f.service->resume(job.id);
  auto resumed = f.wait_terminal(job.id);
  EXPECT_EQ(resumed.state, jobs::job_state::succeeded);
  auto points = f.service->points(job.id);
  ASSERT_EQ(points.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(points[i].index, i);
}

TEST(job_service, a_job_left_running_by_a_dead_process_becomes_interrupted) {
  fixture f;
  {
    store::job_store raw(*f.db);
    auto id = raw.insert("scripted", {{"points", 1}, {"sleep_ms", 0}, {"fail", json::array()}}, {}, 1, 0);
    raw.set_state(id, jobs::job_state::running);
  }
  f.open();
  f.service->start();
  auto job = f.service->get(1);
  EXPECT_EQ(job.state, jobs::job_state::interrupted);
  EXPECT_FALSE(job.error.empty());
}

TEST(job_service, a_full_queue_answers_unavailable) {
  jobs::job_service_options opts;
  opts.max_queued = 2;
  fixture f(opts);
  f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}}), {});
  f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}}), {});
  EXPECT_THROW(f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}}), {}), unavailable);
}

namespace {
// Telemetry whose GPU zone reads a settable temperature.
class hot_source final : public telemetry::sample_source {
 public:
  explicit hot_source(double c) : c_(c) {}
  std::vector<telemetry::channel_info> channels() const override {
    return {{"temp.GPU", "C", telemetry::channel_kind::temperature, "test"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from, std::int64_t to) const override {
    return {{0, (from + to) / 2, c_}};
  }
  std::optional<int> total_power_channel() const override { return std::nullopt; }
  double update_period_s() const override { return 0.01; }

 private:
  double c_;
};
}  // namespace

TEST(job_service, thermal_guard_stops_a_hot_board_and_says_why) {
  test::temp_dir dir;
  store::database db(dir.file("jetperf.db"));
  jobs::workload_registry registry;
  registry.add(jobs::make_workload(scripted_workload{}));
  event_hub hub;
  std::vector<std::optional<std::int64_t>> running;
  for (double temp : {95.0, 60.0}) {
    hot_source hot(temp);
    jobs::job_service_options opts;
    opts.thermal_limit_c = 90;
    opts.on_running = [&](std::optional<std::int64_t> id) { running.push_back(id); };
    jobs::job_service service(db, registry, hub, nullptr, &hot, opts);
    service.start();
    auto id = service.submit("scripted", jetperf::test::spec_of({{"points", 2}}), {}).id;
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (!jobs::is_terminal(service.get(id).state) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(5ms);
    auto job = service.get(id);
    if (temp > 90) {
      EXPECT_EQ(job.state, jobs::job_state::failed);
      EXPECT_NE(job.error.find("temp.GPU at 95.0 C exceeds the 90.0 C limit"), std::string::npos) << job.error;
      EXPECT_EQ(job.points_done, 0);
    } else {
      EXPECT_EQ(job.state, jobs::job_state::succeeded);
    }
    service.stop();
  }
  ASSERT_EQ(running.size(), 4u);
  EXPECT_EQ(running[0], std::optional<std::int64_t>(1));
  EXPECT_EQ(running[1], std::nullopt);
}

TEST(job_service, the_estimate_follows_the_jobs_own_pace_and_the_next_job_learns_from_it) {
  fixture f;
  f.service->start();
  // The kind claims 10 ms per point; each takes at least 40.
  const json spec = {{"points", 20}, {"sleep_ms", 40}, {"estimate_ms", 10}};
  const auto first = f.service->submit("scripted", jetperf::test::spec_of(spec), {});
  EXPECT_NEAR(first.estimate_s, 0.2, 1e-9) << "no history yet: the kind's own estimate";
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (f.service->get(first.id).points_done < 10 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(2ms);
  const auto halfway = f.service->get(first.id);
  ASSERT_GE(halfway.points_done, 10);
  // Refreshed from the pace so far: the whole job takes at least 20 x 40 ms.
  EXPECT_GT(halfway.estimate_now_s, 0.6) << "done " << halfway.points_done;
  ASSERT_EQ(f.wait_terminal(first.id).state, jobs::job_state::succeeded);
  // The next job of the kind is estimated with what this one showed.
  const auto second = f.service->submit("scripted", jetperf::test::spec_of(spec), {});
  EXPECT_GT(second.estimate_s, 0.6);
  EXPECT_GT(jetperf::to_json(f.service->dry_run("scripted", jetperf::test::spec_of(spec)))["estimate_s"].get<double>(), 0.6);
  // Kept in the store: a restarted daemon estimates the same.
  f.wait_terminal(second.id);
  f.open();
  EXPECT_GT(jetperf::to_json(f.service->dry_run("scripted", jetperf::test::spec_of(spec)))["estimate_s"].get<double>(), 0.6);
}

TEST(job_service, a_cancel_as_the_runner_takes_the_job_is_never_overwritten) {
  fixture f;
  f.service->start();
  int cancelled = 0, too_late = 0;
  for (int i = 0; i < 300; ++i) {
    // The runner spends 2 ms expanding the job after taking it from the queue: a cancel lands
    // there, or before, or in the point, by the iteration's delay.
    const auto job = f.service->submit("scripted", jetperf::test::spec_of({{"points", 1}, {"expand_ms", 2}}), {});
    std::this_thread::sleep_for(std::chrono::microseconds(500 * (i % 7)));
    bool said_cancelled = false;
    try {
      said_cancelled = f.service->cancel(job.id).state == jobs::job_state::cancelled;
    } catch (const conflict&) {
      ++too_late;  // it had finished already
    }
    // Once the runner has let go of the job (a cancelled one can look final before it does).
    for (int w = 0; w < 4000 && (f.service->running() == job.id || f.service->queued_count() > 0); ++w)
      std::this_thread::sleep_for(1ms);
    const auto end = f.wait_terminal(job.id);
    if (said_cancelled) {
      ++cancelled;
      EXPECT_EQ(end.state, jobs::job_state::cancelled) << "job " << job.id << " ran after its cancel was answered";
    }
  }
  EXPECT_GT(cancelled, 0);
  // The runner is still alive and serves the next job.
  const auto last = f.service->submit("scripted", jetperf::test::spec_of({{"points", 2}}), {});
  EXPECT_EQ(f.wait_terminal(last.id).state, jobs::job_state::succeeded);
  std::cout << "cancelled " << cancelled << ", finished first " << too_late << " of 300\n";
}
