#pragma once
// GET /v1/power-mode's facts: the mode nvpmodel reports and the board's default.
#include <string>

namespace jetperf::platform {

struct power_mode_status {
  int id = -1;  ///< -1 when nvpmodel printed no id line
  std::string name;
  int default_mode = -1;
  std::string fan_mode;  ///< "" when nvpmodel does not print one
};

}  // namespace jetperf::platform
