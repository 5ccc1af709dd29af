#pragma once
// nvpmodel.conf, NVIDIA's grammar (shared/jetson/README.md section 8.2): PARAM blocks (FILE,
// CLOCK, HWMON) with argument paths, POWER_MODEL blocks with settings, PM_CONFIG and FAN_CONFIG.
// The parser accepts every quirk seen on real boards (missing or double spaces, _KNEXT paths, -1,
// lines wrapped by a terminal of any width, as a copied file carries them).
#include <optional>
#include <string>
#include <vector>

namespace jetperf::platform {

struct nvpmodel_param_arg {
  std::string name;       ///< "MAX_FREQ", "CORE_1", "MAX_FREQ_KNEXT", "WARN"
  std::string path;       ///< sysfs path (HWMON: the hwmon directory)
  std::string attribute;  ///< HWMON only: the attribute file, e.g. "curr1_max"
};

struct nvpmodel_param {
  std::string type;  ///< "FILE", "CLOCK", "HWMON"
  std::string name;  ///< "CPU_A78_0", "GPU", "EMC", "CPU_ONLINE", "TPC_POWER_GATING", ...
  std::vector<nvpmodel_param_arg> args;
  const nvpmodel_param_arg* find_arg(const std::string& name) const;
};

struct nvpmodel_setting {
  std::string param;  ///< param name
  std::string arg;    ///< arg name
  std::string value;  ///< as written; CLOCK "-1" means no limit (INT_MAX)
};

struct nvpmodel_mode {
  int id = 0;
  std::string name;
  std::vector<nvpmodel_setting> settings;  ///< in file order (the order nvpmodel writes them)
  /// Value of param/arg in this mode, if set.
  std::optional<std::string> value(const std::string& param, const std::string& arg) const;
};

struct nvpmodel_conf {
  std::vector<nvpmodel_param> params;
  std::vector<nvpmodel_mode> modes;
  int default_mode = -1;         ///< PM_CONFIG DEFAULT
  std::string default_fan_mode;  ///< FAN_CONFIG DEFAULT, "" when absent

  const nvpmodel_param* find_param(const std::string& name) const;
  const nvpmodel_mode* find_mode(int id) const;
  const nvpmodel_mode* find_mode(const std::string& name) const;
};

/// A CLOCK value as an integer: "-1" is INT_MAX (2147483647), as nvpmodel reads it.
/// Throws platform_error when the value is not an integer.
long long nvpmodel_clock_value(const std::string& value);

/// Parses the text of an nvpmodel.conf. Throws platform_error("line N: ...") on malformed input.
nvpmodel_conf parse_nvpmodel_conf(const std::string& text);

}  // namespace jetperf::platform
