// The layers protocol in_context on a made-up discrete GPU: a backend whose ops run asynchronously
// (timed_run_ops() is empty), whose kernels a tracer records after each run (as CUPTI does), on
// a board whose total power is NVML's (nvml.gpu0.power: an average over a 20 ms window on its own
// update clock, polled every millisecond) with an energy counter beside it (nvml.gpu0.energy, in
// whole mJ, every 10 ms). On virtual time. The protocol's GPU path runs for real: the kernels
// given to their ops by launch time, the sensor's clock fitted, the estimate held to the counter.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <jetperf/measure/protocols/in_context.hpp>
#include <jetperf/models/zoo.hpp>

#include <support/synthetic_layers_board.hpp>
#include <support/virtual_clock.hpp>

using namespace jetperf;

namespace {

constexpr double k_idle_w = 60.0;
constexpr std::int64_t k_window_ns = 20'004'000;  // the sensor's update period and window
constexpr std::int64_t k_counter_ns = 10'000'000;

class recording_tracer final : public workloads::kernel_tracer {
 public:
  bool tracing = false;
  std::vector<workloads::gpu_kernel> kernels;
  void start() override {
    tracing = true;
    kernels.clear();
  }
  workloads::kernel_trace stop(std::size_t) override {
    tracing = false;
    return {kernels, 0, 0};
  }
};

// Launches every op within a few microseconds, then "runs" them on the GPU: two kernels each, 5 us
// apart, for the op's share of its layer's time at its layer's power, the clock following.
class async_gpu_backend final : public workloads::layer_backend {
 public:
  async_gpu_backend(const std::vector<models::layer>& layers, const std::vector<double>& layer_s,
                    const std::vector<double>& layer_w, test::activity_log& log, measure::clock& time)
      : layers_(layers), layer_s_(layer_s), layer_w_(layer_w), log_(log), time_(time) {}

  std::string name() const override { return "async_gpu"; }
  std::optional<std::string> supports(const models::network&, const models::layer&, workloads::gemm_dtype) const override {
    return std::nullopt;
  }
  void prepare(const models::network&, const models::layer&, std::int64_t, workloads::gemm_dtype) override {}
  void run_once() override { run_once_noting_ops(); }
  void sync() override {}
  void set_input(std::size_t, const std::vector<float>&) override {}
  std::vector<float> output() override { return {}; }
  workloads::kernel_tracer* tracer() override { return &tracer_; }

  std::vector<workloads::op_launch> run_once_noting_ops() override {
    std::vector<workloads::op_launch> launches;
    const auto t0 = time_.now_ns();
    std::int64_t gpu = t0 + 30'000;  // the first kernel starts once launched
    std::uint32_t corr = 0;
    for (std::size_t li = 0; li < layers_.size(); ++li) {
      const auto& l = layers_[li];
      const auto op_ns = static_cast<std::int64_t>(layer_s_[li] * 1e9) / (l.last - l.first);
      for (int op = l.first; op < l.last; ++op) {
        const auto launch = t0 + 2'000 * static_cast<std::int64_t>(launches.size());
        launches.push_back({op, launch, launch + 1'500});
        const auto half = op_ns / 2 - 5'000;
        for (int k = 0; k < 2; ++k) {
          workloads::gpu_kernel g;
          g.name = "kernel";
          g.start_ns = gpu + k * (half + 5'000);
          g.end_ns = g.start_ns + half;
          g.launch_ns = launch + 100 + k * 500;
          g.correlation = ++corr;
          if (tracer_.tracing) tracer_.kernels.push_back(g);
        }
        log_.add(gpu, gpu + op_ns, layer_w_[li]);
        gpu += op_ns;
      }
    }
    time_.sleep_until(gpu);
    return launches;
  }

 private:
  const std::vector<models::layer>& layers_;
  const std::vector<double>& layer_s_;
  const std::vector<double>& layer_w_;
  test::activity_log& log_;
  measure::clock& time_;
  recording_tracer tracer_;
};

// NVML as the sampler reads it: its averaged power and its energy counter, polled every 1 ms.
class nvml_source final : public telemetry::sample_source {
 public:
  explicit nvml_source(const test::activity_log& log) : log_(log) {}
  std::vector<telemetry::channel_info> channels() const override {
    using telemetry::channel_kind;
    return {{"nvml.gpu0.power", "W", channel_kind::power, "nvml:Fake GPU"},
            {"nvml.gpu0.energy", "J", channel_kind::other, "nvml:Fake GPU"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    std::vector<telemetry::sample> out;
    for (std::int64_t t = (from_ns / k_poll_ns + 1) * k_poll_ns; t <= to_ns; t += k_poll_ns) {
      const auto u = k_phase_ns + (t - k_phase_ns) / k_window_ns * k_window_ns;
      const auto k = static_cast<std::uint64_t>((u - k_phase_ns) / k_window_ns);
      const double w = k_idle_w + log_.mean_over(u - k_window_ns, u) + 0.3 * test::normal_of(k);
      out.push_back({0, t, std::round(w * 1000) / 1000});
      out.push_back({1, t, std::floor(energy_at(t / k_counter_ns * k_counter_ns) * 1000) / 1000});
    }
    return out;
  }
  std::optional<int> total_power_channel() const override { return 0; }
  // As the sampler on the dgpu board says: its own tick (NVML's update period is configured nowhere).
  double update_period_s() const override { return 0.001; }

  /// The GPU's energy since t = 0 (J), its idle included: exact.
  double energy_at(std::int64_t t) const {
    if (energy_.empty()) energy_[0] = 0;
    auto it = std::prev(energy_.upper_bound(t));
    double above_idle = it->second;
    if (it->first < t) energy_[t] = above_idle += log_.mean_over(it->first, t) * static_cast<double>(t - it->first) * 1e-9;
    return k_idle_w * static_cast<double>(t) * 1e-9 + above_idle;
  }

 private:
  static constexpr std::int64_t k_poll_ns = 1'000'000;
  static constexpr std::int64_t k_phase_ns = 3'300'000;
  const test::activity_log& log_;
  mutable std::map<std::int64_t, double> energy_;  ///< the integral above idle, at times asked
};

}  // namespace

TEST(in_context_gpu, a_gpu_backends_ops_are_timed_by_their_kernels_and_held_to_the_energy_counter) {
  const auto net = models::build_model("resnet18");
  const auto layers = models::layers_of(net, models::granularity::block);
  std::vector<double> seconds, watts;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    seconds.push_back(i % 4 == 2 ? 1.0e-3 : 2.0e-3 * static_cast<double>(1 + i % 3));
    watts.push_back(40 + 25 * static_cast<double>((i * 5) % 7));
  }
  test::activity_log log;
  test::virtual_clock time;
  async_gpu_backend be(layers, seconds, watts, log, time);
  nvml_source nvml(log);
  measure::point_context ctx;
  ctx.telemetry = &nvml;
  ctx.time = &time;
  measure::in_context_plan plan;
  plan.min_time_s = 2;
  plan.max_time_s = 8;
  const auto out = measure::measure_in_context(ctx, be, net, layers, k_idle_w, plan);

  ASSERT_FALSE(out.unsupported) << *out.unsupported;
  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  ASSERT_TRUE(out.estimator.counter);
  EXPECT_TRUE(out.estimator.counter->available);
  EXPECT_LT(std::abs(out.estimator.counter->sum_rel_error), 0.01);
  EXPECT_GT(out.estimator.counter->counter_j, 0.5 * k_idle_w * plan.min_time_s);
  EXPECT_NEAR(out.estimator.sensor.period_s, k_window_ns * 1e-9, 2e-6);
  std::size_t own = 0, within = 0;
  for (std::size_t li = 0; li < out.layers.size(); ++li) {
    const auto& row = out.layers[li];
    ASSERT_TRUE(row.has_figure()) << row.name << ": " << to_string(row.resolution);
    // The layer's time in context is from its first kernel's start to its last one's end: its
    // time less the 5 us gap after its last kernel.
    EXPECT_NEAR(row.latency.median_s, seconds[li] - 5e-6, 1e-7) << row.name;  // ops of whole ns
    if (row.resolution == measure::layer_resolution::merged) continue;
    ++own;
    within += std::abs(row.power_w - (k_idle_w + watts[li])) <= row.power_ci95_w;
  }
  EXPECT_GE(own, out.layers.size() - 2);
  EXPECT_GE(within + 1, own);  // 95% intervals: one layer of a dozen may fall outside
}

TEST(in_context_gpu, without_nvml_power_a_gpu_backend_is_still_skipped) {
  const auto net = models::build_model("resnet18");
  const auto layers = models::layers_of(net, models::granularity::block);
  std::vector<double> seconds(layers.size(), 1e-3), watts(layers.size(), 50);
  test::activity_log log;
  test::virtual_clock time;
  async_gpu_backend be(layers, seconds, watts, log, time);
  test::fake_source jetson;  // power.total: an INA3221, not NVML
  measure::point_context ctx;
  ctx.telemetry = &jetson;
  ctx.time = &time;
  const auto out = measure::measure_in_context(ctx, be, net, layers, k_idle_w, measure::in_context_plan{});
  ASSERT_TRUE(out.unsupported);
  EXPECT_NE(out.unsupported->find("cannot time its ops one by one"), std::string::npos);
}
