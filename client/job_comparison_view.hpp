#pragma once
// `jetperf compare A B` as text: one line per paired point and metric (GET /v1/compare).
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// The pairs' table ("params metric a b b/a 95% verdict"), then what was left unpaired and the
/// regressions' count in words; with `format` "csv", the same pairs as CSV with plain numbers
/// (point, metric, unit, a_mean, b_mean, ratio, ratio_lo, ratio_hi, test, verdict, regressed).
std::string format_job_comparison(const nlohmann::json& comparison, const std::string& format = "table");

}  // namespace jetperf::client
