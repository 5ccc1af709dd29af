#pragma once
// A made-up board for the layers protocol in_context (unit tests and a benchmark): a backend
// whose layers draw known powers for known times, and an averaging power sensor on its own
// update clock, polled like the sampler polls an INA3221, all on one clock: virtual time (the
// default: the work advances the clock, and a test runs in milliseconds the same way every time)
// or CLOCK_MONOTONIC (the backend sleeps through each op; the spans record when each op really
// ended). The protocol's loop, sensor fit, checks and rows run for real; only the board is made
// up, so each layer's true power is known and the power does not follow the host's load.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/measure/clock.hpp>
#include <jetperf/measure/protocols/in_context.hpp>
#include <jetperf/models/zoo.hpp>

#include <support/fake_sources.hpp>
#include <support/virtual_clock.hpp>

namespace jetperf::test {

// When the sensor's averages end: every update_ns from phase_ns (its driver says nominal_ns).
struct sensor_clock {
  std::int64_t nominal_ns = 10'000'000;
  std::int64_t update_ns = 9'792'000;
  std::int64_t phase_ns = 3'300'000;
  std::int64_t last_update_at_or_before(std::int64_t t_ns) const {
    return phase_ns + (t_ns - phase_ns) / update_ns * update_ns;
  }
};

// What ran when, at what power above idle: what the sensor averages. Outside what ran the board
// draws `rest_w` above idle (0: idle).
class activity_log {
 public:
  double rest_w = 0;
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
    std::int64_t covered = 0;
    for (std::size_t i = lo; i < spans_.size() && spans_[i].from_ns < to_ns; ++i) {
      const auto overlap = std::min(spans_[i].to_ns, to_ns) - std::max(spans_[i].from_ns, from_ns);
      if (overlap > 0) joules_ns += static_cast<double>(overlap) * spans_[i].watts, covered += overlap;
    }
    joules_ns += static_cast<double>(to_ns - from_ns - covered) * rest_w;
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
inline double normal_of(std::uint64_t k) {
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
                activity_log& log, const sensor_clock* lock_to, measure::clock& time)
      : layers_(layers), layer_s_(std::move(layer_s)), layer_w_(std::move(layer_w)), log_(log), lock_to_(lock_to),
        time_(time), ran_s_(layers.size()) {}

  /// How long each layer ran, run by run (on CLOCK_MONOTONIC, longer than asked when the host
  /// preempted it).
  const std::vector<std::vector<double>>& ran_s() const { return ran_s_; }

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
    auto t = time_.now_ns();
    if (lock_to_ && previous_end_ns_ > 0 && t - previous_end_ns_ < lock_to_->update_ns / 2) {
      t = lock_to_->last_update_at_or_before(t) + lock_to_->update_ns;
      wait_until(t);
    }
    std::vector<workloads::op_span> out;
    for (std::size_t li = 0; li < layers_.size(); ++li) {
      const auto& l = layers_[li];
      const auto op_ns = static_cast<std::int64_t>(layer_s_[li] * 1e9) / (l.last - l.first);
      const auto layer_start = t;
      for (int op = l.first; op < l.last; ++op) {
        const auto end = wait_until(t + op_ns);
        out.push_back({op, t, end});
        log_.add(t, end, layer_w_[li]);
        t = end;
      }
      ran_s_[li].push_back(static_cast<double>(t - layer_start) * 1e-9);
    }
    previous_end_ns_ = t;
    return out;
  }

 private:
  // Sleeps until the deadline (on CLOCK_MONOTONIC a few tens of microseconds late, and later on
  // a busy host: the op's span and the power log both record the real end).
  std::int64_t wait_until(std::int64_t deadline_ns) {
    time_.sleep_until(deadline_ns);
    return time_.now_ns();
  }

  const std::vector<models::layer>& layers_;
  std::vector<double> layer_s_, layer_w_;
  activity_log& log_;
  const sensor_clock* lock_to_;
  measure::clock& time_;
  std::int64_t previous_end_ns_ = 0;
  std::vector<std::vector<double>> ran_s_;
};

/// A network's layers at block granularity with given durations and powers above idle, on an
/// averaging sensor of `clock` polled every `poll_ns` with Gaussian noise of `noise_w`.
struct synthetic_layers_board {
  models::network net;
  std::vector<models::layer> layers;
  activity_log log;
  fake_source sensor;
  std::vector<double> layer_s, layer_w;
  sensor_clock clock;
  double idle_w, noise_w;
  std::uint64_t seed;
  /// How long after its window ends a reading is seen (a sensor's delay; 0: at once).
  std::int64_t delay_ns = 0;
  /// The time the board and the protocol run on: virtual unless a caller points it elsewhere
  /// (a benchmark of the protocol's real cost: &measure::monotonic_clock()).
  virtual_clock virtual_time;
  measure::clock* time = &virtual_time;

  synthetic_layers_board(const std::string& model, std::vector<double> seconds, std::vector<double> watts,
                         sensor_clock c, std::int64_t poll_ns, double idle, double noise, std::uint64_t noise_seed = 0)
      : net(models::build_model(model)), layers(models::layers_of(net, models::granularity::block)),
        layer_s(std::move(seconds)), layer_w(std::move(watts)), clock(c), idle_w(idle), noise_w(noise), seed(noise_seed) {
    if (layer_s.size() != layers.size() || layer_w.size() != layers.size())
      throw std::invalid_argument("synthetic board: one duration and one power per layer");
    sensor.period_ns = poll_ns;
    sensor.update_ns = clock.nominal_ns;
    sensor.power = [this](std::int64_t t) {
      const auto u = clock.last_update_at_or_before(t - delay_ns);
      return idle_w + log.mean_over(u - clock.update_ns, u) +
             noise_w * normal_of(seed * 1'000'003 + static_cast<std::uint64_t>((u - clock.phase_ns) / clock.update_ns));
    };
  }

  // The sensor reads this board through `this`.
  synthetic_layers_board(const synthetic_layers_board&) = delete;
  synthetic_layers_board& operator=(const synthetic_layers_board&) = delete;

  /// The power a layer draws while it runs, idle included.
  double true_power(std::size_t li) const { return idle_w + layer_w[li]; }

  /// Runs the protocol on this board (`lock_to_sensor`: back-to-back runs start on an update).
  measure::in_context_result run(bool lock_to_sensor, std::optional<double> idle, const measure::in_context_plan& plan) {
    paced_backend be(layers, layer_s, layer_w, log, lock_to_sensor ? &clock : nullptr, *time);
    measure::point_context ctx;
    ctx.telemetry = &sensor;
    ctx.time = time;
    auto out = measure::measure_in_context(ctx, be, net, layers, idle, plan);
    ran_s = be.ran_s();
    return out;
  }
  /// Each layer's durations in the last run() (on CLOCK_MONOTONIC sleeps wake late, the more so
  /// on a busy host).
  std::vector<std::vector<double>> ran_s;
};


}  // namespace jetperf::test
