#include <jetperf/store/board_state_json.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {

namespace {

using platform::clock_range;

nlohmann::json range_json(const clock_range& r) { return {{"min", r.min}, {"max", r.max}, {"governor", r.governor}}; }

clock_range range_from(const nlohmann::json& j) {
  return {j.at("min").get<long long>(), j.at("max").get<long long>(), j.value("governor", std::string())};
}

template <typename T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

bool present(const nlohmann::json& j, const char* key) { return j.contains(key) && !j[key].is_null(); }

}  // namespace

nlohmann::json board_state_json(const platform::board_state& state) {
  nlohmann::json j;
  j["power_mode"] = or_null(state.power_mode);
  j["gpu"] = state.gpu ? range_json(*state.gpu) : nlohmann::json(nullptr);
  j["cpu"] = nlohmann::json::array();
  for (const auto& c : state.cpu) {
    auto r = range_json(c.range);
    r["cores"] = c.cores;
    j["cpu"].push_back(r);
  }
  j["online_cores"] = or_null(state.online_cores);
  const auto& emc = state.emc;
  j["emc"] = emc ? nlohmann::json{{"rate", emc->rate}, {"min", emc->min}, {"max", emc->max}, {"locked", emc->locked},
                                  {"request", emc->request}}
                 : nlohmann::json(nullptr);
  j["fan_pwm"] = or_null(state.fan_pwm);
  j["sensors"] = nlohmann::json::array();
  for (const auto& c : state.sensors) j["sensors"].push_back({{"dir", c.dir}, {"samples", c.samples}});
  return j;
}

platform::board_state board_state_from_json(const nlohmann::json& j) {
  try {
    platform::board_state s;
    if (present(j, "power_mode")) s.power_mode = j["power_mode"].get<int>();
    if (present(j, "gpu")) s.gpu = range_from(j["gpu"]);
    if (j.contains("cpu"))
      for (const auto& c : j["cpu"]) s.cpu.push_back({c.at("cores").get<std::vector<int>>(), range_from(c)});
    if (present(j, "online_cores")) s.online_cores = j["online_cores"].get<std::vector<int>>();
    if (present(j, "emc")) {
      const auto& e = j["emc"];
      s.emc = platform::emc_setting{e.at("rate").get<long long>(), e.value("min", 0LL), e.value("max", 0LL),
                                    e.at("locked").get<bool>(), e.value("request", e.at("rate").get<long long>())};
    }
    if (present(j, "fan_pwm")) s.fan_pwm = j["fan_pwm"].get<int>();
    if (j.contains("sensors"))
      for (const auto& c : j["sensors"])
        s.sensors.push_back({c.at("dir").get<std::string>(), c.at("samples").get<std::int64_t>(), std::nullopt});
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw validation_error("state", std::string("malformed board snapshot: ") + e.what());
  }
}

}  // namespace jetperf::store
