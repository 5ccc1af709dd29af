#pragma once
// One REAL_VAL/CONF_VAL line of `nvpmodel -q --verbose` (README 8.1).
#include <string>

namespace jetperf::platform {

/// One `NVPM VERB: PARAM p: ARG a: PATH x: REAL_VAL: v CONF_VAL: c` line of `-q --verbose`.
struct nvpmodel_verbose_value {
  std::string param;
  std::string arg;
  std::string path;
  std::string real_value;
  std::string conf_value;  ///< -1 in the conf shows as 2147483647
};

}  // namespace jetperf::platform
