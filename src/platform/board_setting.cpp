#include <jetperf/platform/board_setting.hpp>

#include <algorithm>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

const std::vector<setting_field>& setting_fields() {
  static const std::vector<setting_field> fields = {
      {"power_mode", "", "nvpmodel power mode id", &board_setting::power_mode, true},
      {"emc_freq_hz", "Hz", "memory (EMC) clock", &board_setting::emc_freq_hz, false},
      {"gpu_freq_hz", "Hz", "GPU clock", &board_setting::gpu_freq_hz, true},
      {"cpu_freq_khz", "kHz", "CPU clock", &board_setting::cpu_freq_khz, true},
  };
  return fields;
}

std::int64_t check_offered_clock(std::int64_t value, std::vector<std::int64_t> offered, const std::string& field,
                                 const std::string& setting) {
  if (offered.empty()) throw validation_error(field, "this board offers no " + setting + " control", "not_offered");
  std::sort(offered.begin(), offered.end());
  if (std::binary_search(offered.begin(), offered.end(), value)) return value;
  std::string valid;
  for (auto v : offered) valid += (valid.empty() ? "" : ", ") + std::to_string(v);
  throw validation_error(field, setting + " " + std::to_string(value) + " is not offered by this board; valid: " + valid,
                         "not_offered");
}

mode_caps board_offer::caps_in(std::optional<std::int64_t> mode) const {
  const auto id = mode ? mode : power_mode;
  if (!id) return {};
  const auto it = caps.find(*id);
  return it == caps.end() ? mode_caps{} : it->second;
}

std::string board_offer::mode_label(std::int64_t mode) const {
  for (const auto& m : power_modes)
    if (m.id == mode) return std::to_string(mode) + " (" + m.name + ")";
  return std::to_string(mode);
}

const std::vector<std::int64_t>& board_offer::clock_values(const std::string& setting) const {
  static const std::vector<std::int64_t> none;
  if (setting == "emc_freq_hz") return emc_freqs_hz;
  if (setting == "gpu_freq_hz") return gpu_freqs_hz;
  if (setting == "cpu_freq_khz") return cpu_freqs_khz;
  return none;
}

std::string board_setting::label() const {
  std::string s;
  for (const auto& f : setting_fields())
    if (const auto& v = this->*f.member) s += (s.empty() ? "" : ",") + std::string(f.key) + "=" + std::to_string(*v);
  return s.empty() ? "as_is" : s;
}

}  // namespace jetperf::platform
