// The sensor card's GPU half on a real GPU: the busy kernel keeps the GPU busy for its time with
// the calling thread asleep, and the GPU's own power sensor (NVML) steps with the square wave.
// The card's figures for NVML's channel are printed (what this GPU's sensor does is not known
// here beforehand); what is asserted is what any GPU must show.
#include <time.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/stats/sensor_card.hpp>
#include <jetperf/measure/square_wave_load.hpp>
#include <jetperf/workloads/gpu_loads.hpp>

#include "nvml_sampler.hpp"

using namespace jetperf;

namespace {

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

TEST(sensor_card_gpu, the_busy_kernel_lasts_its_time_with_the_caller_asleep) {
  std::string why;
  auto load = workloads::make_gpu_load(&why);
  if (!load) GTEST_SKIP() << why;
  ASSERT_TRUE(load->busy_for(0.01, &why)) << why;  // the first launch loads the module
  const auto cpu_from = thread_cpu_s();
  const auto from = monotonic_ns();
  ASSERT_TRUE(load->busy_for(0.2, &why)) << why;
  const double wall = static_cast<double>(monotonic_ns() - from) * 1e-9;
  const double cpu = thread_cpu_s() - cpu_from;
  std::printf("busy_for(0.2): wall %.4f s, caller's CPU %.4f s\n", wall, cpu);
  EXPECT_GE(wall, 0.199);
  EXPECT_LT(wall, 1.0);
  // A blocking wait: a spinning one would take the whole 0.2 s of a core.
  EXPECT_LT(cpu, 0.5 * wall);
}

TEST(sensor_card_gpu, nvml_power_steps_with_the_gpu_square_wave) {
  std::string why;
  auto load = workloads::make_gpu_load(&why);
  if (!load) GTEST_SKIP() << why;
  const auto started = test::start_nvml_sampler(false, &why);
  if (!started) GTEST_SKIP() << why;
  auto& sampler = *started;
  // Halves of a second: long beside any averaging NVML's power is known to have (up to 1 s on
  // recent GPUs), so the later half of each half holds a settled level.
  measure::square_wave_plan plan;
  plan.lead_s = 1.0;
  plan.half_period_s = 1.0;
  plan.edges = 6;
  plan.device_step = [&load](std::string* step_why) { return load->busy_for(0.002, step_why); };
  const auto from = monotonic_ns();
  const auto edges = measure::run_square_wave(plan, [] { return false; });
  const auto to = monotonic_ns();
  const auto channel = *sampler.total_power_channel();
  std::vector<std::pair<std::int64_t, double>> polls;
  for (const auto& s : sampler.window(from, to))
    if (s.channel == channel) polls.emplace_back(s.t_ns, s.value);
  sampler.clear_job();
  sampler.stop();
  ASSERT_EQ(edges.size(), 6u);
  ASSERT_FALSE(polls.empty());

  // The mean reading over the later half of each busy and each idle half (the idle ones after
  // each fall, the last one included).
  double busy = 0, idle = 0;
  int busy_n = 0, idle_n = 0;
  const auto half_ns = static_cast<std::int64_t>(plan.half_period_s * 1e9);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const auto settled = edges[e].t_ns + half_ns / 2, end = edges[e].t_ns + half_ns;
    for (const auto& [t, w] : polls) {
      if (t < settled || t >= end) continue;
      (edges[e].rising ? busy : idle) += w;
      ++(edges[e].rising ? busy_n : idle_n);
    }
  }
  ASSERT_GT(busy_n, 0);
  ASSERT_GT(idle_n, 0);
  busy /= busy_n;
  idle /= idle_n;
  const auto card = stats::card_of_channel(polls, edges, plan.half_period_s, sampler.update_period_s());
  std::printf("NVML power: busy %.1f W, idle %.1f W; card: period %.2f ms (%s), window %.1f ms, lag %.1f ms, "
              "resolution %.1f mW (%s)\n",
              busy, idle, card.period_s * 1e3, card.period_unusable.c_str(), card.step.window_s * 1e3,
              card.step.lag_s * 1e3, card.resolution ? *card.resolution * 1e3 : -1.0, card.step.unusable.c_str());
  // Every SM busy with FMAs draws tens of watts over idle on any GPU NVML reports power for.
  EXPECT_GT(busy - idle, 10.0) << "busy " << busy << " W, idle " << idle << " W";
}
