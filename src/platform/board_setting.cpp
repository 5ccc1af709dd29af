#include <jetperf/platform/board_setting.hpp>

namespace jetperf::platform {

std::string board_setting::label() const {
  std::string s;
  const auto add = [&s](const char* key, const auto& v) {
    if (v) s += (s.empty() ? "" : ",") + std::string(key) + "=" + std::to_string(*v);
  };
  add("power_mode", power_mode);
  add("emc_freq_hz", emc_freq_hz);
  add("gpu_freq_hz", gpu_freq_hz);
  add("cpu_freq_khz", cpu_freq_khz);
  return s.empty() ? "as_is" : s;
}

}  // namespace jetperf::platform
