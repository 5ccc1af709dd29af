#pragma once
// Parsers for what the nvpmodel program prints (shared/jetson/README.md section 8.1): `-q`,
// `-q --verbose` and `-p --verbose`. Pure functions over text, so fixtures test them directly.
#include <string>
#include <vector>

#include <jetperf/platform/nvpmodel_conf.hpp>

namespace jetperf::platform {

/// `nvpmodel -q`: "NV Fan Mode:<m>" (Xavier r32, optional), "NV Power Mode: <NAME>", then the id.
struct nvpmodel_query {
  int mode_id = -1;               ///< -1 when the id line is missing
  std::string mode_name;
  std::string fan_mode;           ///< "" when not printed
  std::vector<std::string> warnings;  ///< text after "NVPM WARN:"
};

/// One `NVPM VERB: PARAM p: ARG a: PATH x: REAL_VAL: v CONF_VAL: c` line of `-q --verbose`.
struct nvpmodel_verbose_value {
  std::string param;
  std::string arg;
  std::string path;
  std::string real_value;
  std::string conf_value;  ///< -1 in the conf shows as 2147483647
};

/// Parses `nvpmodel -q` output; throws platform_error when no "NV Power Mode" line is present.
nvpmodel_query parse_nvpmodel_query(const std::string& output);
/// The REAL_VAL/CONF_VAL lines of `nvpmodel -q --verbose` (other lines are skipped).
std::vector<nvpmodel_verbose_value> parse_nvpmodel_query_verbose(const std::string& output);
/// The configuration dumped by `nvpmodel -p --verbose` (PM_CONFIG, PARAM and POWER_MODEL blocks).
/// Throws platform_error when it holds no POWER_MODEL.
nvpmodel_conf parse_nvpmodel_dump(const std::string& output);
/// The messages of every "NVPM ERROR:" line, in order.
std::vector<std::string> nvpmodel_errors(const std::string& output);

}  // namespace jetperf::platform
