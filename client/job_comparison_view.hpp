#pragma once
// `jetperf compare A B` as text: one line per paired point and metric (GET /v1/compare).
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// The pairs' table ("params metric a b b/a 95% verdict"), then what was left unpaired and the
/// regressions' count in words.
std::string format_job_comparison(const nlohmann::json& comparison);

}  // namespace jetperf::client
