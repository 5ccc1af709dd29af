#pragma once
// Synthetic telemetry and board control with known answers for the measurement tests.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <jetperf/platform/board_settings.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::test {

/// A board that records what was applied and reads it back unchanged.
class fake_board final : public platform::board_settings {
 public:
  platform::board_offer offered() const override {
    platform::board_offer o;
    o.power_modes = {{0, "MAXN", {}}, {1, "15W", {}}};
    o.gpu_freqs_hz = {300000000, 600000000, 900000000};
    o.cpu_freqs_khz = {1200000, 2200000};
    o.emc_freqs_hz = {2133000000};
    o.has_cuda_device = false;
    o.memory_bytes = 8LL << 30;
    return o;
  }
  void arm(std::int64_t) override {}
  platform::board_setting apply(const platform::board_setting& s) override {
    if (s.power_mode) state_.power_mode = s.power_mode;
    if (s.gpu_freq_hz) state_.gpu_freq_hz = s.gpu_freq_hz;
    if (s.cpu_freq_khz) state_.cpu_freq_khz = s.cpu_freq_khz;
    if (s.emc_freq_hz) state_.emc_freq_hz = s.emc_freq_hz;
    ++applies_;
    return state_;
  }
  platform::board_setting read_back() const override { return state_; }
  void restore() override { state_ = {}; }

  double gpu_hz() const { return static_cast<double>(state_.gpu_freq_hz.value_or(0)); }
  int applies() const { return applies_; }

 private:
  platform::board_setting state_;
  int applies_ = 0;
};

/// Samples every `period_ns` on a fixed grid: power.total and rail.VDD_GPU from `power(t)`,
/// clock.gpu from `clock(t)`, temp.GPU constant 45 C. The sensor's own update period is
/// `update_ns` when set (a poll faster than the sensor), else the sampling period.
class fake_source final : public telemetry::sample_source {
 public:
  std::function<double(std::int64_t)> power = [](std::int64_t) { return 7.5; };
  std::function<double(std::int64_t)> clock = [](std::int64_t) { return 0.0; };
  std::int64_t period_ns = 1000000;
  std::int64_t update_ns = 0;

  std::vector<telemetry::channel_info> channels() const override {
    using telemetry::channel_kind;
    return {{"power.total", "W", channel_kind::power, "fake"},
            {"rail.VDD_GPU", "W", channel_kind::power, "fake"},
            {"clock.gpu", "Hz", channel_kind::clock, "fake"},
            {"temp.GPU", "C", channel_kind::temperature, "fake"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    std::vector<telemetry::sample> out;
    for (std::int64_t t = (from_ns / period_ns + 1) * period_ns; t <= to_ns; t += period_ns) {
      const double p = power(t);
      out.push_back({0, t, p});
      out.push_back({1, t, p * 0.4});
      out.push_back({2, t, clock(t)});
      out.push_back({3, t, 45.0});
    }
    return out;
  }
  std::optional<int> total_power_channel() const override { return 0; }
  double update_period_s() const override { return static_cast<double>(update_ns > 0 ? update_ns : period_ns) * 1e-9; }

  /// The fastest tick a point may ask for (0: period_ns, no faster), as a sampler offers it.
  double fastest_tick_s = 0;
  /// Every set_job_tick_period_s asked, in order.
  std::vector<double> tick_requests;
  double tick_period_s() const override { return point_tick_s_ > 0 ? point_tick_s_ : configured_tick_s(); }
  double fastest_tick_period_s() const override { return fastest_tick_s > 0 ? fastest_tick_s : configured_tick_s(); }
  double set_job_tick_period_s(double period_s) override {
    tick_requests.push_back(period_s);
    point_tick_s_ = period_s > 0 ? std::min(std::max(period_s, fastest_tick_period_s()), configured_tick_s()) : 0;
    return tick_period_s();
  }

 private:
  double configured_tick_s() const { return static_cast<double>(period_ns) * 1e-9; }
  double point_tick_s_ = 0;
};

}  // namespace jetperf::test
