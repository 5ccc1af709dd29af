// The protocol `concurrent` on virtual time (support/lockstep_clock.hpp): pipelines whose stages
// take known times, each on its own thread, so every count is exact. The protocol polls its
// warm-up every millisecond and checks the window every 20 ms from its opening, both on whole
// milliseconds from the start; the pipelines' inferences end at times that never fall on a whole
// millisecond (4.3006 ms, 5.7003 ms, ... apart), so no inference ends at an instant the protocol
// looks: which side of an edge each falls on is decided by the arithmetic below, not by the host.
#include <jetperf/measure/protocols/concurrent.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <support/fake_sources.hpp>
#include <support/lockstep_clock.hpp>
#include <support/scripted_cpu_usage.hpp>

using namespace jetperf;

namespace {

constexpr std::int64_t k_ms = 1'000'000;
constexpr std::int64_t k_start = 100'000'000'000;  // the clock's start (lockstep_clock's default)

// One stage: what crosses into it takes transfer_ns (-1: nothing does), then it runs inference_ns.
struct virtual_stage {
  std::int64_t transfer_ns = -1;
  std::int64_t inference_ns = 0;
};

// A pipeline whose stages sleep their times on the clock and report them as measured there.
// Optionally it fails on its run number fail_on (1-based) and calls after_run after each run.
class virtual_pipeline final : public measure::concurrent_pipeline {
 public:
  virtual_pipeline(std::string name, test::lockstep_clock& clock, std::vector<virtual_stage> stages)
      : name_(std::move(name)), clock_(clock), stages_(std::move(stages)) {}

  const std::string& name() const override { return name_; }
  std::size_t stage_count() const override { return stages_.size(); }
  void set_threads(int threads) override { threads_set = threads; }
  void run_once(std::vector<measure::stage_timing>& out) override {
    test::leave_at_thread_exit(clock_);
    if (++runs == fail_on) throw std::runtime_error("device lost");
    out.resize(stages_.size());
    for (std::size_t i = 0; i < stages_.size(); ++i) out[i] = run_stage(stages_[i], i == 0 ? runs * slowdown_ns : 0);
    if (after_run) after_run(runs);
  }

  int fail_on = -1;
  std::function<void(int)> after_run;
  /// How much longer each run's first stage takes than the run before's (0: every run alike).
  std::int64_t slowdown_ns = 0;
  int runs = 0;
  int threads_set = 0;

 private:
  measure::stage_timing run_stage(const virtual_stage& s, std::int64_t extra_ns) {
    measure::stage_timing t;
    if (s.transfer_ns >= 0) {
      const auto t0 = clock_.now_ns();
      clock_.sleep_for(s.transfer_ns);
      t.transfer_s = static_cast<double>(clock_.now_ns() - t0) * 1e-9;
    }
    const auto t1 = clock_.now_ns();
    clock_.sleep_for(s.inference_ns + extra_ns);
    t.inference_s = static_cast<double>(clock_.now_ns() - t1) * 1e-9;
    return t;
  }

  std::string name_;
  test::lockstep_clock& clock_;
  std::vector<virtual_stage> stages_;
};

// Pipelines, their clock (their threads and the protocol's own take part) and a power sensor
// sampled every millisecond.
struct bench {
  explicit bench(std::size_t pipelines) : clock(pipelines + 1) {
    ctx.time = &clock;
    ctx.cancel = &cancel;
    ctx.telemetry = &sensor;
    sensor.power = [](std::int64_t) { return 6.0; };
  }
  virtual_pipeline& add(const std::string& name, std::vector<virtual_stage> stages) {
    made.push_back(std::make_unique<virtual_pipeline>(name, clock, std::move(stages)));
    return *made.back();
  }
  measure::concurrent_result run(const measure::concurrent_plan& plan) {
    std::vector<measure::concurrent_pipeline*> pipelines;
    for (auto& p : made) pipelines.push_back(p.get());
    return measure::concurrent_protocol(ctx, pipelines, plan)();
  }

  test::lockstep_clock clock;
  std::atomic<bool> cancel{false};
  test::fake_source sensor;
  measure::point_context ctx;
  std::vector<std::unique_ptr<virtual_pipeline>> made;
};

// resnet18 split in two (1.9003 ms; a 0.3001 ms copy, then 2.1002 ms): 4.3006 ms an inference.
virtual_pipeline& add_resnet18(bench& b) {
  return b.add("resnet18", {{-1, 1'900'300}, {300'100, 2'100'200}});
}
// alexnet whole on one device: 5.7003 ms an inference.
virtual_pipeline& add_alexnet(bench& b) { return b.add("alexnet", {{-1, 5'700'300}}); }

measure::concurrent_plan fixed_plan(double seconds) {
  measure::concurrent_plan plan;
  plan.warmup_runs = 2;
  plan.fixed_s = seconds;
  return plan;
}

// An adaptive plan whose min_time_s and max_time_s fall between two checks (10 and 15 checks in).
measure::concurrent_plan adaptive_plan() {
  measure::concurrent_plan plan;
  plan.warmup_runs = 2;
  plan.min_time_s = 0.19;
  plan.max_time_s = 0.29;
  plan.target_rse = 0.01;
  return plan;
}

}  // namespace

TEST(concurrent_protocol, counts_what_each_pipeline_completed_inside_the_fixed_window) {
  bench b(2);
  auto& r18 = add_resnet18(b);
  auto& alex = add_alexnet(b);
  auto plan = fixed_plan(0.49);
  plan.threads = 2;
  const auto r = b.run(plan);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r18.threads_set, 2);
  EXPECT_EQ(alex.threads_set, 2);
  // Both warm after their second inference, alexnet's at 11.4006 ms: the poll at 12 ms opens the
  // window. Its 25th check, 500 ms in, is the first past 0.49 s.
  EXPECT_EQ(r.t_warmup_ns, k_start);
  EXPECT_EQ(r.window.t_start_ns, k_start + 12 * k_ms);
  EXPECT_EQ(r.window.t_end_ns, k_start + 512 * k_ms);
  EXPECT_DOUBLE_EQ(r.seconds(), 0.5);
  EXPECT_EQ(r.window.decision.reason, measure::stop_reason::fixed_duration);
  EXPECT_FALSE(r.window.cancelled);
  ASSERT_EQ(r.pipelines.size(), 2u);
  // resnet18's inferences end every 4.3006 ms: 2 by 12 ms, 119 by 512 ms; alexnet's every
  // 5.7003 ms: 2, then 89.
  const auto& w18 = r.pipelines[0];
  EXPECT_EQ(w18.warmup, 2u);
  EXPECT_EQ(w18.inferences, 117u);
  const auto& wa = r.pipelines[1];
  EXPECT_EQ(wa.warmup, 2u);
  EXPECT_EQ(wa.inferences, 87u);
  // Every stage of every counted inference, with its own times; a copy only into the second stage.
  ASSERT_EQ(w18.stages.size(), 2u);
  EXPECT_EQ(w18.stages[0].count, 117u);
  EXPECT_EQ(w18.stages[1].count, 117u);
  EXPECT_NEAR(w18.stages[0].mean_inference_s(), 1.9003e-3, 1e-12);
  EXPECT_NEAR(w18.stages[1].mean_inference_s(), 2.1002e-3, 1e-12);
  EXPECT_FALSE(w18.stages[0].mean_transfer_s());
  EXPECT_EQ(w18.stages[1].transfers, 117u);
  EXPECT_NEAR(*w18.stages[1].mean_transfer_s(), 0.3001e-3, 1e-12);
  EXPECT_EQ(w18.stages[0].inference_s.size(), 117u);
  ASSERT_EQ(w18.cycle_s.size(), 117u);
  EXPECT_NEAR(w18.cycle_s.front(), 4.3006e-3, 1e-12);
  EXPECT_NEAR(w18.throughput_rse, 0.0, 1e-12);
  EXPECT_NEAR(wa.stages[0].mean_inference_s(), 5.7003e-3, 1e-12);
  // The power over the window less 50 ms at each end: 0.4 s of 1 ms samples at 6 W.
  ASSERT_TRUE(r.window.power && r.window.power->total_power_w);
  EXPECT_DOUBLE_EQ(*r.window.power->total_power_w, 6.0);
  EXPECT_EQ(r.window.power->total_samples, 401u);
  EXPECT_NEAR(r.window.power_window_s, 0.4, 1e-12);
  EXPECT_EQ(r.window.samples.size(), 4u * 401);  // the sensor's four channels
}

TEST(concurrent_protocol, the_adaptive_rule_stops_once_throughput_and_power_have_converged) {
  bench b(1);
  b.add("alexnet", {{-1, 1'000'700}});  // 1.0007 ms an inference, every one alike
  auto plan = adaptive_plan();
  plan.max_time_s = 5;
  plan.target_rse = 0.05;
  const auto r = b.run(plan);
  ASSERT_EQ(r.error, "");
  // Warm after 2.0014 ms: the window opens at 3 ms. Its 10th check (200 ms in) is the first past
  // min_time_s, with 200 inferences (from 3.0021 ms to 202.1414 ms) and the power's RSE 0.
  EXPECT_EQ(r.window.t_start_ns, k_start + 3 * k_ms);
  EXPECT_EQ(r.window.t_end_ns, k_start + 203 * k_ms);
  EXPECT_EQ(r.window.decision.reason, measure::stop_reason::converged);
  EXPECT_TRUE(r.window.decision.unmet.empty());
  EXPECT_EQ(r.pipelines[0].warmup, 2u);
  EXPECT_EQ(r.pipelines[0].inferences, 200u);
  EXPECT_NEAR(r.pipelines[0].throughput_rse, 0.0, 1e-12);
}

TEST(concurrent_protocol, at_max_time_the_window_says_which_criterion_was_unmet) {
  // Too few inferences: one entry, however many pipelines are short.
  {
    bench b(2);
    add_resnet18(b);
    add_alexnet(b);
    auto plan = adaptive_plan();
    plan.min_inferences = 1000;
    const auto r = b.run(plan);
    EXPECT_EQ(r.window.decision.reason, measure::stop_reason::max_time);
    EXPECT_EQ(r.window.decision.unmet, std::vector<std::string>{"min_samples"});
    // Opened at 12 ms; the 15th check, 300 ms in, is the first past max_time_s.
    EXPECT_EQ(r.window.t_end_ns - r.window.t_start_ns, 300 * k_ms);
  }
  // A pipeline that slows down, 50.1 us more each inference: its throughput's RSE stays above
  // the target (0.022 to 0.029 over the checks from min_time_s on).
  {
    bench b(1);
    auto& alex = add_alexnet(b);
    alex.slowdown_ns = 50'100;
    const auto r = b.run(adaptive_plan());
    EXPECT_EQ(r.window.decision.reason, measure::stop_reason::max_time);
    EXPECT_EQ(r.window.decision.unmet, std::vector<std::string>{"throughput_rse"});
    EXPECT_GT(r.pipelines[0].throughput_rse, 0.01);
  }
  // Steady pipelines on a board whose power climbs through the window.
  {
    bench b(1);
    add_alexnet(b);
    b.sensor.power = [](std::int64_t t) { return 5.0 + 10.0 * static_cast<double>(t - k_start) * 1e-9; };
    const auto r = b.run(adaptive_plan());
    EXPECT_EQ(r.window.decision.reason, measure::stop_reason::max_time);
    EXPECT_EQ(r.window.decision.unmet, std::vector<std::string>{"power_rse"});
    ASSERT_TRUE(r.window.power);
    EXPECT_GT(r.window.power->total_rse, 0.01);
  }
}

TEST(concurrent_protocol, a_failing_pipeline_ends_the_window_at_the_next_check_and_names_itself) {
  bench b(2);
  add_resnet18(b);
  auto& alex = add_alexnet(b);
  alex.fail_on = 6;  // after five inferences, at 28.5015 ms
  const auto r = b.run(fixed_plan(5));
  EXPECT_EQ(r.error, "alexnet: device lost");
  EXPECT_EQ(r.window.t_start_ns, k_start + 12 * k_ms);
  EXPECT_EQ(r.window.t_end_ns, k_start + 32 * k_ms);
  EXPECT_FALSE(r.window.power);  // a failed window's power is not read
}

TEST(concurrent_protocol, a_cancel_ends_the_window_or_keeps_it_from_opening) {
  {
    bench b(2);
    auto& r18 = add_resnet18(b);
    add_alexnet(b);
    r18.after_run = [&](int run) {
      if (run == 10) b.cancel = true;  // at 43.006 ms
    };
    const auto r = b.run(fixed_plan(30));
    EXPECT_TRUE(r.window.cancelled);
    EXPECT_EQ(r.window.decision.reason, measure::stop_reason::cancelled);
    EXPECT_EQ(r.window.t_end_ns, k_start + 52 * k_ms);
    EXPECT_FALSE(r.window.power);
  }
  {
    bench b(1);
    auto& alex = add_alexnet(b);
    alex.after_run = [&](int) { b.cancel = true; };  // after its first inference, in the warm-up
    const auto r = b.run(fixed_plan(30));
    EXPECT_TRUE(r.window.cancelled);
    EXPECT_EQ(r.window.decision.reason, measure::stop_reason::cancelled);
    EXPECT_EQ(r.window.t_start_ns, 0);
    EXPECT_EQ(r.pipelines[0].inferences, 0u);
    // Cancelled at 5.7003 ms, seen at 6 ms; the inference in flight then ends before the join.
    EXPECT_EQ(r.pipelines[0].warmup, 2u);
  }
}

TEST(concurrent_protocol, a_pipeline_that_never_warms_up_fails_the_window_at_the_timeout) {
  bench b(1);
  b.add("vgg16", {{-1, 2'000'000'000}});  // 2 s an inference
  auto plan = fixed_plan(1);
  plan.warmup_timeout_s = 1;
  const auto r = b.run(plan);
  EXPECT_EQ(r.error, "the networks did not finish 2 warm-up inferences in 1 s");
  EXPECT_EQ(r.window.t_start_ns, 0);
  EXPECT_EQ(r.pipelines[0].warmup, 1u);  // the one in flight at the timeout, finished before the join
}

// A window other processes took more than the threshold from is measured again at once, the
// pipelines running on: the one kept counts only its own inferences (those of the window let go
// count as before it), and the window let go stays on the timeline, named for why.
TEST(concurrent_protocol, a_contended_window_is_measured_again_and_the_one_kept_says_what_it_met) {
  bench b(1);
  add_alexnet(b);
  test::scripted_cpu_usage usage(b.clock, {0.40, 0.02});
  b.ctx.cpu_usage = &usage;
  std::vector<measure::timeline_span> spans;
  b.ctx.timeline = [&](measure::timeline_span sp) { spans.push_back(std::move(sp)); };
  auto plan = fixed_plan(0.49);
  plan.contention = {0.05, 2};
  const auto r = b.run(plan);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(usage.windows, 2);
  ASSERT_TRUE(r.window.contention);
  EXPECT_NEAR(r.window.contention->others_cpu_share, 0.02, 1e-9);
  EXPECT_EQ(r.window.contention->retries, 1);
  EXPECT_FALSE(r.window.contention->contended);
  // The first window as in the fixed window's test (12 to 512 ms, alexnet's 87 inferences), then
  // the second from 512 ms to its 25th check: alexnet's inferences ending at 513.03 to 1008.95 ms.
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].name, "contended window");
  EXPECT_EQ(spans[0].t_start_ns, k_start + 12 * k_ms);
  EXPECT_EQ(spans[0].t_end_ns, k_start + 512 * k_ms);
  EXPECT_EQ(r.window.t_start_ns, k_start + 512 * k_ms);
  EXPECT_EQ(r.window.t_end_ns, k_start + 1012 * k_ms);
  EXPECT_EQ(r.pipelines[0].inferences, 88u);
  EXPECT_EQ(r.pipelines[0].stages[0].count, 88u);
  EXPECT_EQ(r.pipelines[0].warmup, 89u);
  ASSERT_TRUE(r.window.power && r.window.power->total_power_w);
  EXPECT_NEAR(r.window.power_window_s, 0.4, 1e-12);
}

TEST(concurrent_protocol, after_max_retries_the_last_window_is_kept_flagged_and_without_a_source_none_is_measured) {
  bench b(1);
  add_alexnet(b);
  test::scripted_cpu_usage usage(b.clock, {0.30, 0.20, 0.10, 0.0});
  b.ctx.cpu_usage = &usage;
  auto plan = fixed_plan(0.09);
  plan.contention = {0.05, 2};
  const auto r = b.run(plan);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(usage.windows, 3);  // the first and two retries; the fourth share is never asked for
  ASSERT_TRUE(r.window.contention);
  EXPECT_NEAR(r.window.contention->others_cpu_share, 0.10, 1e-9);
  EXPECT_EQ(r.window.contention->retries, 2);
  EXPECT_TRUE(r.window.contention->contended);

  bench none(1);
  add_alexnet(none);
  EXPECT_FALSE(none.run(plan).window.contention);
}
