#include <jetperf/telemetry/engine_sensor.hpp>

#include <limits>

#include <jetperf/platform/engine_clocks.hpp>

namespace jetperf::telemetry {

engine_sensor::engine_sensor(const platform::sysfs_root& root, std::int64_t min_interval_ns)
    : min_interval_ns_(min_interval_ns) {
  for (const auto& clock : platform::engine_clock_names()) {
    const auto files = platform::find_engine_clock(root, clock);
    if (!files.any()) continue;
    engine e;
    if (!files.enable.empty()) e.enable.emplace(root.host_path(files.enable));
    if (!files.rate.empty()) e.rate.emplace(root.host_path(files.rate));
    // Unreadable (not root): no channel, as tegrastats prints no engines without root.
    if ((e.enable && !e.enable->ok()) || (e.rate && !e.rate->ok())) continue;
    channels_.push_back({"clock." + clock, "Hz", channel_kind::clock, files.rate.empty() ? files.enable : files.rate});
    engines_.push_back(std::move(e));
  }
}

void engine_sensor::read(std::int64_t, double* values) {
  constexpr double none = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    const auto& e = engines_[i];
    if (e.enable) {
      const auto on = e.enable->read_int();
      if (!on) {
        values[i] = none;
        continue;
      }
      if (*on == 0) {
        values[i] = 0.0;  // gated: tegrastats' "off"
        continue;
      }
    }
    const auto hz = e.rate ? e.rate->read_int() : std::nullopt;
    values[i] = hz ? static_cast<double>(*hz) : none;
  }
}

}  // namespace jetperf::telemetry
