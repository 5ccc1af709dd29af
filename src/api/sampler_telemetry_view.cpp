#include <jetperf/api/sampler_telemetry_view.hpp>

#include <algorithm>

#include <jetperf/common/clock.hpp>

namespace jetperf::api {

std::vector<channel_reading> sampler_telemetry_view::latest() const {
  const auto values = sampler_.latest();
  std::vector<channel_reading> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i].value = values[i];
  // Sensors may update slower than the tick, so look back a few of their periods, at least 1 s.
  const auto period_ns = static_cast<std::int64_t>(sampler_.update_period_s() * 1e9);
  const auto now = monotonic_ns();
  const auto lookback = std::max<std::int64_t>(1'000'000'000, 4 * period_ns);
  for (const auto& s : sampler_.window(now - lookback, now))
    if (s.channel >= 0 && static_cast<std::size_t>(s.channel) < out.size())
      out[s.channel].t_ns = std::max(out[s.channel].t_ns, s.t_ns);
  return out;
}

}  // namespace jetperf::api
