// The layers protocol in_context end to end on a synthetic board: a backend whose layers draw
// known powers for known times (busy-waiting on CLOCK_MONOTONIC), and an averaging power sensor
// polled every 2 ms that updates every 9.792 ms while its driver says 10 (as the simulated
// INA3221 updates every 19.584 ms, says 20, and is polled every 10 ms). The
// protocol's own loop, sensor fit, checks, stop rules, phase-lock jitter and rows are the real
// ones; only the board is made up, so each layer's true power is known.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/clock.hpp>
#include <jetperf/kinds/layers/in_context_power.hpp>
#include <jetperf/models/zoo.hpp>

#include <support/fake_sources.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

constexpr double k_idle_w = 5.0;
constexpr double k_noise_w = 0.01;

// When the sensor's averages end: every update_ns from phase_ns (its driver says nominal_ns).
struct sensor_clock {
  std::int64_t nominal_ns = 10'000'000;
  std::int64_t update_ns = 9'792'000;
  std::int64_t phase_ns = 3'300'000;
  std::int64_t last_update_at_or_before(std::int64_t t_ns) const {
    return phase_ns + (t_ns - phase_ns) / update_ns * update_ns;
  }
};

// What ran when, at what power above idle: what the sensor averages.
class activity_log {
 public:
  void add(std::int64_t from_ns, std::int64_t to_ns, double watts) { spans_.push_back({from_ns, to_ns, watts}); }
  /// Mean power above idle over (from_ns, to_ns].
  double mean_over(std::int64_t from_ns, std::int64_t to_ns) const {
    // Spans are in time order and do not overlap: start at the first that ends after from_ns.
    std::size_t lo = 0, hi = spans_.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (spans_[mid].to_ns <= from_ns) lo = mid + 1;
      else hi = mid;
    }
    double joules_ns = 0;
    for (std::size_t i = lo; i < spans_.size() && spans_[i].from_ns < to_ns; ++i) {
      const auto overlap = std::min(spans_[i].to_ns, to_ns) - std::max(spans_[i].from_ns, from_ns);
      if (overlap > 0) joules_ns += static_cast<double>(overlap) * spans_[i].watts;
    }
    return joules_ns / static_cast<double>(to_ns - from_ns);
  }

 private:
  struct span {
    std::int64_t from_ns, to_ns;
    double watts;
  };
  std::vector<span> spans_;
};

// A standard normal number for each update index: the same reading however often it is polled.
double normal_of(std::uint64_t k) {
  const auto mix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  const double u1 = (static_cast<double>(mix(2 * k) >> 11) + 0.5) / 9007199254740992.0;
  const double u2 = (static_cast<double>(mix(2 * k + 1) >> 11) + 0.5) / 9007199254740992.0;
  return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// Runs every op of the network for its layer's share of the layer's time, drawing the layer's
// power. With `lock_to` (the sensor's clock), a run that follows the previous one back to back starts on the
// sensor's next update, as a workload paced in step with the sensor would: every such run sees
// the windows' edges at the same places.
class paced_backend final : public workloads::layer_backend {
 public:
  paced_backend(const std::vector<models::layer>& layers, std::vector<double> layer_s, std::vector<double> layer_w,
                activity_log& log, const sensor_clock* lock_to)
      : layers_(layers), layer_s_(std::move(layer_s)), layer_w_(std::move(layer_w)), log_(log), lock_to_(lock_to) {}

  std::string name() const override { return "paced"; }
  std::optional<std::string> supports(const models::network&, const models::layer&, workloads::gemm_dtype) const override {
    return std::nullopt;
  }
  void prepare(const models::network&, const models::layer&, std::int64_t, workloads::gemm_dtype) override {}
  void run_once() override { timed_run_ops(); }
  void sync() override {}
  void set_input(std::size_t, const std::vector<float>&) override {}
  std::vector<float> output() override { return {}; }

  std::vector<workloads::op_span> timed_run_ops() override {
    auto t = monotonic_ns();
    if (lock_to_ && previous_end_ns_ > 0 && t - previous_end_ns_ < lock_to_->update_ns / 2) {
      t = lock_to_->last_update_at_or_before(t) + lock_to_->update_ns;
      wait_until(t);
    }
    std::vector<workloads::op_span> out;
    for (std::size_t li = 0; li < layers_.size(); ++li) {
      const auto& l = layers_[li];
      const auto op_ns = static_cast<std::int64_t>(layer_s_[li] * 1e9) / (l.last - l.first);
      for (int op = l.first; op < l.last; ++op) {
        const auto end = wait_until(t + op_ns);
        out.push_back({op, t, end});
        log_.add(t, end, layer_w_[li]);
        t = end;
      }
    }
    previous_end_ns_ = t;
    return out;
  }

 private:
  static std::int64_t wait_until(std::int64_t deadline_ns) {
    std::int64_t now = monotonic_ns();
    while (now < deadline_ns) now = monotonic_ns();
    return now;
  }

  const std::vector<models::layer>& layers_;
  std::vector<double> layer_s_, layer_w_;
  activity_log& log_;
  const sensor_clock* lock_to_;
  std::int64_t previous_end_ns_ = 0;
};

struct synthetic_board {
  models::network net = models::build_model("resnet18");
  std::vector<models::layer> layers = models::layers_of(net, models::granularity::block);
  activity_log log;
  test::fake_source sensor;
  std::vector<double> layer_s, layer_w;
  sensor_clock clock;

  explicit synthetic_board(double run_s, sensor_clock c = {}) : clock(c) {
    // Layers of 0.3 ms to 3.6 ms, each with its own power above idle (0.4 to 2.2 W).
    double sum = 0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
      layer_s.push_back(i % 4 == 2 ? 0.3e-3 : 1.2e-3 * static_cast<double>(1 + i % 3));
      layer_w.push_back(0.4 + 0.3 * static_cast<double>((i * 5) % 7));
      sum += layer_s.back();
    }
    for (double& s : layer_s) s *= run_s / sum;
    sensor.period_ns = 2'000'000;
    sensor.update_ns = clock.nominal_ns;
    sensor.power = [this](std::int64_t t) {
      const auto u = clock.last_update_at_or_before(t);
      return k_idle_w + log.mean_over(u - clock.update_ns, u) +
             k_noise_w * normal_of(static_cast<std::uint64_t>((u - clock.phase_ns) / clock.update_ns));
    };
  }

  /// The power a layer draws while it runs, idle included.
  double true_power(std::size_t li) const { return k_idle_w + layer_w[li]; }
};

kinds::in_context_power run_protocol(synthetic_board& b, bool lock_to_sensor, std::optional<double> idle_w,
                                const kinds::in_context_power_plan& plan) {
  paced_backend be(b.layers, b.layer_s, b.layer_w, b.log, lock_to_sensor ? &b.clock : nullptr);
  jobs::point_context ctx;
  ctx.telemetry = &b.sensor;
  return kinds::measure_in_context_power(ctx, be, b.net, b.layers, idle_w, plan);
}

// Every layer with a number of its own holds its true power within its interval (twice the 95%
// half-width, so one layer in a few thousand would fail by chance); returns how many did.
std::size_t check_against_truth(const kinds::in_context_power& out, const synthetic_board& b) {
  std::size_t own = 0;
  EXPECT_EQ(out.rows.size(), b.layers.size());
  for (std::size_t li = 0; li < out.rows.size(); ++li) {
    const auto& row = out.rows[li];
    SCOPED_TRACE(row.dump());
    EXPECT_EQ(row["layer_name"], b.layers[li].name);
    EXPECT_GT(row["latency_count"].get<int>(), 0);
    EXPECT_NEAR(row["latency_median_s"].get<double>(), b.layer_s[li], 0.2e-3 + 0.05 * b.layer_s[li]);
    const auto resolution = row["layer_resolution"].get<std::string>();
    if (resolution != "resolved" && resolution != "not_converged" && resolution != "merged") {
      ADD_FAILURE() << "no power figure: " << resolution;
      continue;
    }
    const double ci = row["power_ci95_w"].get<double>();
    EXPECT_GT(ci, 0);
    EXPECT_NEAR(row["energy_j"].get<double>(), row["power_w"].get<double>() * row["latency_mean_s"].get<double>(), 1e-12);
    if (resolution == "merged") {
      EXPECT_FALSE(row["merged_with"].get<std::string>().empty());
      continue;
    }
    ++own;
    EXPECT_NEAR(row["power_w"].get<double>(), b.true_power(li), 2 * ci);
    EXPECT_EQ(resolution == "resolved", ci / row["power_w"].get<double>() <= 0.02 + 1e-12);
  }
  return own;
}

}  // namespace

TEST(in_context_power, recovers_each_layers_known_power_from_end_to_end_runs) {
  synthetic_board b(0.025);
  kinds::in_context_power_plan plan;
  plan.min_time_s = 0.5;
  plan.max_time_s = 6;
  plan.target_rel = 0.02;
  const auto out = run_protocol(b, false, k_idle_w, plan);

  ASSERT_TRUE(out.estimated) << out.estimator.dump();
  const auto& e = out.estimator;
  EXPECT_TRUE(e["unresolvable"].is_null());
  const std::string stop = out.window.decision.reason;
  EXPECT_TRUE(stop == "converged" || stop == "projected_max_time") << stop;
  EXPECT_NEAR(e["sensor"]["period_s"].get<double>(), b.clock.update_ns * 1e-9, b.clock.update_ns * 1e-9 * 0.002);
  EXPECT_GE(e["checks"].get<int>(), 1);
  EXPECT_LT(e["residual_rms_w"].get<double>(), 3 * k_noise_w);
  EXPECT_GE(check_against_truth(out, b), b.layers.size() - 3);

  // The layers add up to the runs' energy: the true energy of a run within the intervals.
  double truth_j = 0;
  for (std::size_t li = 0; li < b.layers.size(); ++li)
    truth_j += b.true_power(li) * out.rows[li]["latency_mean_s"].get<double>();
  EXPECT_NEAR(out.sum_energy_j, truth_j, 3 * out.sum_energy_ci95_j + 0.002 * truth_j);
}

TEST(in_context_power, runs_locked_in_phase_with_the_sensor_are_paused_at_random_and_still_resolve) {
  // Each run lasts just under one sensor update and, back to back, starts on the next update: the
  // windows' edges fall at the same places in every run until the protocol pauses between runs.
  synthetic_board b(0.0096);
  kinds::in_context_power_plan plan;
  plan.min_time_s = 0.3;
  plan.check_period_s = 0.25;
  plan.max_time_s = 6;
  plan.target_rel = 0.02;
  const auto out = run_protocol(b, true, k_idle_w, plan);

  ASSERT_TRUE(out.estimated) << out.estimator.dump();
  EXPECT_TRUE(out.estimator["jitter"].get<bool>()) << out.estimator.dump();
  // Runs that stayed locked would merge every layer into the whole network (the estimator's own
  // tests): after the pauses, layers get numbers of their own, each holding its true power.
  EXPECT_GE(check_against_truth(out, b), 4u);
}

TEST(in_context_power, without_an_idle_baseline_no_layer_gets_a_number) {
  synthetic_board b(0.010);
  kinds::in_context_power_plan plan;
  plan.min_time_s = 0.2;
  const auto out = run_protocol(b, false, std::nullopt, plan);

  EXPECT_FALSE(out.estimated);
  EXPECT_EQ(out.estimator["unresolvable"], "no idle baseline to subtract");
  EXPECT_EQ(out.window.decision.reason, "no_power");
  ASSERT_EQ(out.rows.size(), b.layers.size());
  for (const auto& row : out.rows) {
    EXPECT_EQ(row["layer_resolution"], "unresolvable") << row.dump();
    EXPECT_FALSE(row.contains("power_w")) << row.dump();
    EXPECT_GT(row["latency_count"].get<int>(), 0);
  }
}

TEST(in_context_power, a_sensor_that_updates_faster_than_it_is_read_gives_no_layer_a_number) {
  // 1.5 ms averages read every 2 ms: which window a poll's value ended is anyone's guess.
  synthetic_board b(0.010, sensor_clock{1'500'000, 1'500'000, 300'000});
  kinds::in_context_power_plan plan;
  plan.min_time_s = 0.2;
  plan.max_time_s = 10;
  const auto out = run_protocol(b, false, k_idle_w, plan);

  EXPECT_FALSE(out.estimated);
  EXPECT_NE(out.estimator["unresolvable"].get<std::string>().find("cannot be placed"), std::string::npos)
      << out.estimator.dump();
  EXPECT_EQ(out.window.decision.reason, "no_power");
  // Stopped at its first check (the final solve is the second), not at max_time_s.
  EXPECT_EQ(out.estimator["checks"], 2);
  for (const auto& row : out.rows) EXPECT_EQ(row["layer_resolution"], "unresolvable") << row.dump();
}
