#include <jetperf/measure/square_wave_load.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>

namespace jetperf::measure {
namespace {

square_wave_plan short_plan(int edges) {
  square_wave_plan plan;
  plan.lead_s = 0.01;
  plan.half_period_s = 0.02;
  plan.edges = edges;
  return plan;
}

// The load threads run at the lowest priority: on a busy host one may see a half late or not at
// all, so a wave makes at most the edges planned, always in rise/fall pairs (a thread that saw
// a rise notes its fall).
void expect_alternating_from_a_rise(const std::vector<stats::load_edge>& edges) {
  EXPECT_EQ(edges.size() % 2, 0u);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    EXPECT_EQ(edges[i].rising, i % 2 == 0) << "edge " << i;
    if (i > 0) EXPECT_GT(edges[i].t_ns, edges[i - 1].t_ns) << "edge " << i;
  }
}

TEST(square_wave_load, the_cpu_wave_makes_every_edge_in_turn) {
  const auto edges = run_square_wave(short_plan(6), [] { return false; });
  ASSERT_GE(edges.size(), 2u);
  ASSERT_LE(edges.size(), 6u);
  expect_alternating_from_a_rise(edges);
}

// A device step that sleeps a millisecond and notes when it ran and on which thread.
struct recording_step {
  std::mutex mutex;
  std::vector<std::pair<std::int64_t, std::int64_t>> calls;  // (start, end)
  std::vector<std::thread::id> threads;
  int fail_on_call = 0;  // 0: never

  bool operator()(std::string* why) {
    const auto from = monotonic_ns();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::lock_guard<std::mutex> lock(mutex);
    calls.emplace_back(from, monotonic_ns());
    threads.push_back(std::this_thread::get_id());
    if (fail_on_call > 0 && static_cast<int>(calls.size()) == fail_on_call) {
      *why = "the device fell off the bus";
      return false;
    }
    return true;
  }
};

TEST(square_wave_load, a_device_step_runs_on_one_thread_and_only_inside_the_busy_halves) {
  recording_step step;
  auto plan = short_plan(4);
  plan.threads = 8;  // one thread drives a device, however many the CPU wave would use
  plan.device_step = [&step](std::string* why) { return step(why); };
  const auto edges = run_square_wave(plan, [] { return false; });
  ASSERT_GE(edges.size(), 2u);
  ASSERT_LE(edges.size(), 4u);
  expect_alternating_from_a_rise(edges);
  ASSERT_GE(step.calls.size(), 1u);
  for (const auto& t : step.threads) EXPECT_EQ(t, step.threads.front());
  for (const auto& [from, to] : step.calls) {
    // Each call starts at or after a rise and ends at or before the fall that follows it.
    bool inside = false;
    for (std::size_t i = 0; i + 1 < edges.size(); i += 2) inside = inside || (from >= edges[i].t_ns && to <= edges[i + 1].t_ns);
    EXPECT_TRUE(inside) << "a call at " << from << ".." << to << " outside the busy halves";
  }
}

TEST(square_wave_load, a_failed_device_step_ends_the_wave_and_says_why) {
  recording_step step;
  step.fail_on_call = 3;
  auto plan = short_plan(200);  // 4 s if it ran to the end
  plan.device_step = [&step](std::string* why) { return step(why); };
  const auto from = monotonic_ns();
  try {
    run_square_wave(plan, [] { return false; });
    FAIL() << "a failed step did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the device fell off the bus");
  }
  EXPECT_EQ(step.calls.size(), 3u);  // none after the failure
  // Stopped at the failure and one idle half after it, not at the wave's end.
  EXPECT_LT(static_cast<double>(monotonic_ns() - from) * 1e-9, 2.0);
}

TEST(square_wave_load, a_cancelled_wave_stops_with_the_edges_made_so_far) {
  const auto from = monotonic_ns();
  const auto edges = run_square_wave(short_plan(200), [&] { return monotonic_ns() - from > 100'000'000; });
  EXPECT_LT(edges.size(), 20u);
  expect_alternating_from_a_rise(edges);
}

}  // namespace
}  // namespace jetperf::measure
