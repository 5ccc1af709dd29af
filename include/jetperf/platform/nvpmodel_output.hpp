#pragma once
// Parsers for what the nvpmodel program prints (shared/jetson/README.md section 8.1): `-q`,
// `-q --verbose` and `-p --verbose`. Pure functions over text, so fixtures test them directly.
#include <string>
#include <vector>

#include <jetperf/platform/nvpmodel_conf.hpp>
#include <jetperf/platform/nvpmodel_query.hpp>
#include <jetperf/platform/nvpmodel_verbose_value.hpp>

namespace jetperf::platform {

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
