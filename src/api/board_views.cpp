#include <jetperf/api/board_views.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/clock_control.hpp>
#include <jetperf/store/board_state_json.hpp>

namespace jetperf::api {

namespace {

template <typename T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json gpu_json(const platform::gpu_description& gpu) {
  return {{"available_hz", gpu.available_hz}, {"min_hz", gpu.range.min}, {"max_hz", gpu.range.max},
          {"governor", gpu.range.governor}, {"scaling", gpu.scaling}};
}

nlohmann::json cpu_json(const platform::cpu_description& cpu) {
  nlohmann::json clusters = nlohmann::json::array();
  for (const auto& c : cpu.clusters) {
    nlohmann::json j{{"cores", c.cores}, {"available_khz", c.available_khz}};
    // A policy whose files could not be read (offline) shows its lists only.
    if (c.range) {
      j["min_khz"] = c.range->min;
      j["max_khz"] = c.range->max;
      j["governor"] = c.range->governor;
    }
    clusters.push_back(std::move(j));
  }
  return {{"clusters", clusters}, {"cores", cpu.cores}, {"online", cpu.online}, {"available_khz", cpu.available_khz}};
}

nlohmann::json emc_json(const platform::emc_description& emc) {
  nlohmann::json j{{"available_hz", emc.available_hz}};
  if (emc.setting) {
    j["rate_hz"] = emc.setting->rate;
    j["min_hz"] = emc.setting->min;
    j["max_hz"] = emc.setting->max;
    j["locked"] = emc.setting->locked;
  }
  return j;
}

}  // namespace

nlohmann::json board_info_json(const platform::board_info& info) {
  return {{"jetson", info.jetson}, {"family", info.family},         {"soc", info.soc}, {"model", info.model},
          {"module", info.module}, {"compatible", info.compatible}, {"l4t", info.l4t}, {"jetpack", info.jetpack}};
}

nlohmann::json board_discovery_json(const platform::board_discovery& paths) {
  nlohmann::json j;
  const auto& gpu = paths.gpu;
  j["gpu"] = gpu ? nlohmann::json{{"of_name", gpu->of_name}, {"freq_dir", gpu->freq_dir}, {"device_dir", gpu->device_dir}}
                 : nlohmann::json(nullptr);
  j["cpu_clusters"] = nlohmann::json::array();
  for (const auto& c : paths.clusters) j["cpu_clusters"].push_back({{"cores", c.cores}, {"cpufreq_dir", c.cpufreq_dir}});
  j["cores"] = paths.cores;
  const auto& e = paths.emc;
  j["emc"] = {{"kind", e.kind}, {"rate", e.rate},     {"min_rate", e.min_rate}, {"max_rate", e.max_rate},
              {"lock", e.lock}, {"update", e.update}, {"possible", e.possible}, {"cap", e.cap}};
  j["fan_pwm"] = paths.fan_pwm;
  return j;
}

nlohmann::json power_modes_json(const std::vector<platform::power_mode_description>& modes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : modes) {
    nlohmann::json j{{"id", m.id}, {"name", m.name}, {"default", m.is_default}};
    // Only what the mode's settings name: a mode that names no GPU cap has no gpu_max_hz, one
    // that names nvpmodel's "no limit" (-1 for a clock, 0 for EMC) has null, not the sentinel.
    const auto cap = [&j](const char* key, const std::optional<long long>& v, bool uncapped) {
      if (v) j[key] = *v;
      else if (uncapped) j[key] = nullptr;
    };
    cap("gpu_max_hz", m.gpu_max_hz, m.gpu_uncapped);
    cap("emc_max_hz", m.emc_max_hz, m.emc_uncapped);
    cap("cpu_max_khz", m.cpu_max_khz, m.cpu_uncapped);
    if (m.cores_online) j["cores_online"] = *m.cores_online;
    j["reboot_needed_from_default"] = m.reboot_needed_from_default;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json board_json(const platform::board_description& board) {
  nlohmann::json j = board_info_json(board.info);
  j["modes"] = power_modes_json(board.modes);
  j["default_mode"] = or_null(board.default_mode);
  j["gpu"] = board.gpu ? gpu_json(*board.gpu) : nlohmann::json(nullptr);
  j["cpu"] = cpu_json(board.cpu);
  j["emc"] = board.emc ? emc_json(*board.emc) : nlohmann::json(nullptr);
  j["fan"] = board.has_fan ? nlohmann::json{{"pwm", or_null(board.fan_pwm)}} : nlohmann::json(nullptr);
  j["paths"] = board_discovery_json(board.paths);
  j["nvpmodel"] = or_null(board.nvpmodel);
  return j;
}

nlohmann::json current_settings_json(const platform::current_settings& now) {
  return {{"power_mode", or_null(now.power_mode)},     {"power_mode_name", or_null(now.power_mode_name)},
          {"gpu_freq_hz", or_null(now.gpu_freq_hz)},   {"gpu_min_hz", or_null(now.gpu_min_hz)},
          {"gpu_max_hz", or_null(now.gpu_max_hz)},     {"gpu_cur_hz", or_null(now.gpu_cur_hz)},
          {"cpu_freq_khz", or_null(now.cpu_freq_khz)}, {"cpu_cur_khz", or_null(now.cpu_cur_khz)},
          {"emc_freq_hz", or_null(now.emc_freq_hz)},   {"emc_locked", or_null(now.emc_locked)}};
}

nlohmann::json power_mode_json(const platform::power_mode_status& mode) {
  return {{"id", mode.id}, {"name", mode.name}, {"default", mode.default_mode}, {"fan_mode", mode.fan_mode}};
}

nlohmann::json clock_state_json(const platform::clock_status& clocks) {
  nlohmann::json j = current_settings_json(clocks.current);
  j["armed"] = clocks.armed;
  j["state"] = store::board_state_json(clocks.state);
  return j;
}

long long pick_frequency(const nlohmann::json& value, const std::vector<long long>& offered, const std::string& field) {
  // A board without the control says so whatever the value: it is the answer that helps.
  if (offered.empty()) return platform::check_frequency(0, offered, field);
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "min") return offered.front();
    if (s == "max") return offered.back();
    throw validation_error(field, field + ": '" + s + "' is not a frequency, \"min\" or \"max\"");
  }
  if (!value.is_number_integer() && !value.is_number_unsigned())
    throw validation_error(field, field + ": expected an integer frequency, \"min\" or \"max\"");
  return platform::check_frequency(value.get<long long>(), offered, field);
}

platform::clock_request read_clock_request(const nlohmann::json& body, const platform::clock_offer& offered) {
  return read_clock_request(body, offered, offered);
}

platform::clock_request read_clock_request(const nlohmann::json& body, const platform::clock_offer& offered,
                                           const platform::clock_offer& limits) {
  if (!body.is_object()) throw validation_error("clocks", "expected an object with gpu, cpu and/or emc");
  // "min" and "max" are the limits' ends; a value must be offered (the controller then holds it
  // under the mode's cap, refusing one above as such rather than as not offered).
  const auto pick = [](const nlohmann::json& v, const std::vector<long long>& all, const std::vector<long long>& now,
                       const std::string& field) { return pick_frequency(v, v.is_string() ? now : all, field); };
  platform::clock_request request;
  for (const auto& item : body.items()) {
    const auto& k = item.key();
    if (k == "gpu") request.gpu_hz = pick(item.value(), offered.gpu_hz, limits.gpu_hz, k);
    else if (k == "cpu") request.cpu_khz = pick(item.value(), offered.cpu_khz, limits.cpu_khz, k);
    else if (k == "emc") request.emc_hz = pick(item.value(), offered.emc_hz, limits.emc_hz, k);
    else throw validation_error(k, "unknown clock '" + k + "' (known: gpu, cpu, emc)", "unknown_field");
  }
  return request;
}

}  // namespace jetperf::api
