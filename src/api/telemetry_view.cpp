#include <jetperf/api/telemetry_view.hpp>

#include <jetperf/common/clock.hpp>

namespace jetperf::api {

const char* to_string(telemetry::channel_kind kind) {
  switch (kind) {
    case telemetry::channel_kind::power: return "power";
    case telemetry::channel_kind::clock: return "clock";
    case telemetry::channel_kind::temperature: return "temperature";
    case telemetry::channel_kind::utilisation: return "utilisation";
    case telemetry::channel_kind::other: break;
  }
  return "other";
}

nlohmann::json telemetry_snapshot_json(const telemetry_view& view) {
  const auto channels = view.channels();
  const auto readings = view.latest();
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const auto& c = channels[i];
    // A view that answers fewer readings than channels reports the rest as not read yet.
    const channel_reading reading = i < readings.size() ? readings[i] : channel_reading{};
    list.push_back({{"name", c.name},
                    {"unit", c.unit},
                    {"kind", to_string(c.kind)},
                    {"source", c.source},
                    {"value", reading.value ? nlohmann::json(*reading.value) : nlohmann::json(nullptr)},
                    {"t_ns", reading.t_ns}});
  }
  return {{"t_ns", monotonic_ns()}, {"channels", list}};
}

nlohmann::json sampler_health_json(const telemetry::sampler_health& h) {
  return {{"running", h.running},
          {"period_s", h.period_s},
          {"idle_period_s", h.idle_period_s},
          {"full_rate", h.full_rate},
          {"achieved_rate_hz", h.achieved_rate_hz},
          {"jitter_mean_s", h.jitter_mean_s},
          {"jitter_p50_s", h.jitter_p50_s},
          {"jitter_p99_s", h.jitter_p99_s},
          {"ticks", h.ticks},
          {"missed_ticks", h.missed_ticks},
          {"cpu_time_s", h.cpu_time_s},
          {"cpu_share", h.cpu_share},
          {"samples", h.samples},
          {"batches_flushed", h.batches_flushed}};
}

}  // namespace jetperf::api
