#include <jetperf/platform/mode_caps.hpp>

#include <algorithm>
#include <regex>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

namespace {

// The core a cpufreq or online file belongs to ("/sys/devices/system/cpu/cpu4/cpufreq/..." -> 4,
// ".../cpufreq/policy4/..." -> 4); nullopt for any other path.
std::optional<int> core_of(const std::string& path) {
  static const std::regex re(R"(/cpu(?:freq/policy)?(\d+)/)");
  std::smatch m;
  if (!std::regex_search(path, m, re)) return std::nullopt;
  return std::stoi(m[1].str());
}

std::optional<int> core_of_arg(const nvpmodel_param& param, const std::string& arg) {
  if (const auto* a = param.find_arg(arg)) return core_of(a->path);
  if (const auto* a = param.find_arg(arg + "_KNEXT")) return core_of(a->path);
  return std::nullopt;
}

// The cores the mode takes offline (CPU_ONLINE CORE_n 0).
std::vector<int> offline_cores(const nvpmodel_conf& conf, const nvpmodel_mode& mode) {
  std::vector<int> out;
  const auto* online = conf.find_param("CPU_ONLINE");
  if (!online) return out;
  for (const auto& s : mode.settings)
    if (s.param == "CPU_ONLINE" && s.value == "0")
      if (const auto core = core_of_arg(*online, s.arg)) out.push_back(*core);
  return out;
}

}  // namespace

bool is_cpu_clock(const nvpmodel_param& param) {
  if (param.type != "CLOCK") return false;
  for (const auto& a : param.args)
    if (a.name.rfind("MAX_FREQ", 0) == 0 && a.path.find("/cpufreq/") != std::string::npos) return true;
  return false;
}

std::optional<std::int64_t> mode_caps::of(const std::string& setting) const {
  if (setting == "emc_freq_hz") return emc_freq_hz;
  if (setting == "gpu_freq_hz") return gpu_freq_hz;
  if (setting == "cpu_freq_khz") return cpu_freq_khz;
  return std::nullopt;
}

std::optional<std::int64_t> clock_cap(const std::string& value) {
  const long long v = nvpmodel_clock_value(value);
  if (v <= 0 || v >= 2147483647LL) return std::nullopt;
  return v;
}

mode_caps caps_of_mode(const nvpmodel_conf& conf, const nvpmodel_mode& mode) {
  mode_caps caps;
  if (const auto v = mode.value("GPU", "MAX_FREQ")) caps.gpu_freq_hz = clock_cap(*v);
  if (const auto v = mode.value("EMC", "MAX_FREQ")) caps.emc_freq_hz = clock_cap(*v);
  // jetperf locks every online cluster to one CPU clock: the lowest cluster cap bounds it. A
  // cluster whose first core the mode takes offline keeps no cap of this mode.
  const auto offline = offline_cores(conf, mode);
  for (const auto& s : mode.settings) {
    if (s.arg != "MAX_FREQ") continue;
    const auto* param = conf.find_param(s.param);
    if (!param || !is_cpu_clock(*param)) continue;
    const auto core = core_of_arg(*param, "MAX_FREQ");
    if (core && std::find(offline.begin(), offline.end(), *core) != offline.end()) continue;
    const auto cap = clock_cap(s.value);
    if (cap && (!caps.cpu_freq_khz || *cap < *caps.cpu_freq_khz)) caps.cpu_freq_khz = cap;
  }
  return caps;
}

std::vector<std::int64_t> under_cap(const std::vector<std::int64_t>& offered, std::optional<std::int64_t> cap) {
  if (!cap) return offered;
  std::vector<std::int64_t> out;
  for (auto v : offered)
    if (v <= *cap) out.push_back(v);
  return out;
}

std::int64_t check_under_cap(std::int64_t value, std::optional<std::int64_t> cap, const std::vector<std::int64_t>& offered,
                             const std::string& field, const std::string& setting, const std::string& mode) {
  if (!cap || value <= *cap) return value;
  std::string valid;
  for (auto v : under_cap(offered, cap)) valid += (valid.empty() ? "" : ", ") + std::to_string(v);
  throw validation_error(field,
                         setting + " " + std::to_string(value) + " is above the cap of power mode " + mode + ", " +
                             std::to_string(*cap) + "; valid in that mode: " + (valid.empty() ? "none" : valid),
                         "above_cap");
}

}  // namespace jetperf::platform
