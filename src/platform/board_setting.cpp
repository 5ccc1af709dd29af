#include <jetperf/platform/board_setting.hpp>

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

std::string board_setting::label() const {
  std::string s;
  for (const auto& f : setting_fields())
    if (const auto& v = this->*f.member) s += (s.empty() ? "" : ",") + std::string(f.key) + "=" + std::to_string(*v);
  return s.empty() ? "as_is" : s;
}

}  // namespace jetperf::platform
