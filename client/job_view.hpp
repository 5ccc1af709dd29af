#pragma once
// `jetperf show ID`: one job for a person to read: its header, its spec as `key: value` lines and
// its summary read by kind.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/summary_table.hpp>

namespace jetperf::client {

/// id, kind, state, progress, estimate, tags, times and error as aligned `key: value` lines, then
/// "spec:" (see format_spec) and the summary (see format_show_summary, which renders the kind's
/// declared `summary_tables`).
std::string format_job_view(const nlohmann::json& job, const std::vector<summary_table>& summary_tables = {});

/// A job spec as `indent`ed `key: value` lines, keys aligned: lists joined with ", ", {m,n,k}
/// sizes as "MxNxK", flat objects as "k=v k=v", user networks as "1 user network (name, N
/// layers)", and anything deeper as one line of compact JSON.
std::string format_spec(const nlohmann::json& spec, const std::string& indent = "  ");

}  // namespace jetperf::client
