#include <jetperf/api/clock_floors.hpp>

#include <string>

namespace jetperf::api {

namespace {

std::optional<double> number(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// A reading in hertz, whatever unit its channel has.
double hertz(const telemetry::channel_info& c, double v) {
  return c.unit == "kHz" ? v * 1e3 : c.unit == "MHz" ? v * 1e6 : v;
}

}  // namespace

std::vector<telemetry::prometheus_clock_floor> clock_floors(const nlohmann::json& clocks,
                                                            const std::vector<telemetry::channel_info>& channels,
                                                            const std::vector<std::optional<double>>& values) {
  std::vector<telemetry::prometheus_clock_floor> out;
  if (!clocks.is_object()) return out;
  const auto gpu_cur = number(clocks, "gpu_cur_hz"), gpu_min = number(clocks, "gpu_min_hz");
  if (gpu_cur && gpu_min && *gpu_min > 0) out.push_back({"gpu", *gpu_cur, *gpu_min});

  const auto state = clocks.value("state", nlohmann::json::object());
  const auto clusters = state.value("cpu", nlohmann::json::array());
  for (std::size_t i = 0; i < channels.size() && i < values.size(); ++i) {
    const auto& name = channels[i].name;
    if (!values[i] || name.rfind("clock.cpu", 0) != 0) continue;
    const auto core_text = name.substr(9);
    if (core_text.empty() || core_text.find_first_not_of("0123456789") != std::string::npos) continue;
    const int core = std::stoi(core_text);
    for (const auto& cluster : clusters) {
      const auto cores = cluster.value("cores", nlohmann::json::array());
      bool has = false;
      for (const auto& c : cores) has = has || (c.is_number_integer() && c.get<int>() == core);
      const auto min_khz = number(cluster, "min");
      if (has && min_khz && *min_khz > 0) out.push_back({"cpu" + core_text, hertz(channels[i], *values[i]), *min_khz * 1e3});
    }
  }

  const auto emc = state.value("emc", nlohmann::json::object());
  const auto rate = number(emc, "rate"), request = number(emc, "request");
  if (emc.value("locked", false) && rate && request && *request > 0) out.push_back({"emc", *rate, *request});
  return out;
}

}  // namespace jetperf::api
