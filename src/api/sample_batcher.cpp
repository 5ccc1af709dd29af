#include <jetperf/api/sample_batcher.hpp>

#include <limits>

namespace jetperf::api {

nlohmann::json sample_batcher::next(const telemetry_view& view, std::int64_t now_ns) {
  // A tick's samples share one time and enter the ring together, and ticks come in time order,
  // so "after the newest one handed over" misses nothing and repeats nothing.
  const std::int64_t from = last_t_ns_ ? *last_t_ns_ + 1 : now_ns - first_lookback_ns_;
  const auto samples = view.window(from, std::numeric_limits<std::int64_t>::max());
  const std::size_t dropped = samples.size() > cap_ ? samples.size() - cap_ : 0;

  auto names = nlohmann::json::array();
  for (const auto& c : view.channels()) names.push_back(c.name);
  auto rows = nlohmann::json::array();
  std::int64_t t0 = 0;
  if (samples.size() > dropped) {
    t0 = samples[dropped].t_ns;
    last_t_ns_ = samples.back().t_ns;
  }
  for (std::size_t i = dropped; i < samples.size(); ++i) {
    const auto& s = samples[i];
    rows.push_back(nlohmann::json::array({(s.t_ns - t0) / 1000, s.channel, s.value}));
  }
  return {{"channels", std::move(names)}, {"t0_ns", t0}, {"samples", std::move(rows)}, {"dropped", dropped}};
}

}  // namespace jetperf::api
