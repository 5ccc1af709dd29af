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

std::string board_setting::label() const {
  std::string s;
  for (const auto& f : setting_fields())
    if (const auto& v = this->*f.member) s += (s.empty() ? "" : ",") + std::string(f.key) + "=" + std::to_string(*v);
  return s.empty() ? "as_is" : s;
}

}  // namespace jetperf::platform
