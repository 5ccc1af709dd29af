#include "summary_view.hpp"

#include <sstream>
#include <vector>

#include "output.hpp"
#include "summary_tables.hpp"

namespace jetperf::client {

namespace {

using nlohmann::json;

json field(const json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() ? json() : *it;
}

std::string key_value_lines(const json& summary, const std::vector<std::string>& skip = {}) {
  std::string out;
  for (const auto& [k, v] : summary.items()) {
    bool skipped = false;
    for (const auto& s : skip) skipped = skipped || s == k;
    if (!skipped) out += k + ": " + format_cell(v) + "\n";
  }
  return out;
}

bool is_gemm_summary(const std::string& kind, const json& summary) {
  return kind == "gemm" && summary.contains("best_overall");
}

// "1 contended, 2 rse_unmet": the points a verdict left out, by why ("" for none).
std::string left_out_counts(const json& left_out) {
  std::string out;
  if (!left_out.is_object()) return out;
  for (const auto& [why, n] : left_out.items()) out += (out.empty() ? "" : ", ") + format_cell(n) + " " + why;
  return out;
}

// What each reason a verdict left points out for means: those of the contended and rse_unmet
// flags always (as before), an implausible figure's where one was.
std::string left_out_meaning(const json& left_out) {
  std::string out;
  if (left_out.is_object() && left_out.contains("implausible")) out += "implausible: a figure broke a physical bound; ";
  return out + "contended: other processes took CPU time from the window; rse_unmet: short of its precision target";
}

// The exact line scripts and the quick start read; "-" with the reason when nothing qualified.
std::string most_efficient_line(const json& summary) {
  const auto& best = summary["best_overall"];
  // Where the simulated clock did not slow the workload, every clock ran at host speed: naming
  // the lowest clock "most efficient" would be an artefact, so no setting is concluded.
  const auto& flags = field(field(summary, "points"), "flags");
  const auto unsimulated = field(flags, "speed_not_simulated");
  if (unsimulated.is_number() && unsimulated.get<double>() > 0)
    return "most efficient: - (not concluded: speed was not simulated, so settings compare power only)\n";
  // Several threads under a simulated clock slow down more than the clock says.
  const auto approximate = field(flags, "speed_threads_approx");
  if (approximate.is_number() && approximate.get<double>() > 0)
    return "most efficient: - (not concluded: the simulated slowdown of several threads is exaggerated; "
           "compare clocks with threads=1)\n";
  const auto left_out = field(summary, "left_out");
  const std::string left = left_out_counts(left_out);
  std::string out = "most efficient: ";
  if (best.is_object()) out += format_best_setting(best);
  else if (!left.empty()) out += "- (every point with power was left out: " + left + ")";
  else out += "- (no point measured power)";
  out += "\n";
  const auto over_idle = field(summary, "best_overall_over_idle");
  if (best.is_object() && over_idle.is_object()) out += "most efficient over idle: " + format_best_over_idle(over_idle) + "\n";
  if (best.is_object() && !left.empty())
    out += "left out of the verdict: " + left + " (" + left_out_meaning(left_out) + ")\n";
  return out;
}

// "float 256x256x256 cpu_freq_khz=...: 37.4 GFLOP/s (95% 36.1 .. 38.7, n=3) DISAGREE" per group.
std::string repeat_lines(const json& summary) {
  const auto rows = field(summary, "repeats");
  if (!rows.is_array() || rows.empty()) return {};
  std::string out = "across repeats (mean, 95% interval):\n";
  for (const auto& r : rows) {
    const auto g = field(r, "gflops");
    // A time interval that reaches zero bounds the rate from below only.
    const auto upper = field(g, "ci95_high");
    const std::string high = upper.is_null() && g.is_object() ? "no upper bound" : format_cell(upper);
    out += "  " + format_params(r, {"device", "gflops", "gflops_per_w", "repeats_disagree"}) + ": " +
           format_cell(field(g, "mean")) + " GFLOP/s (" + format_cell(field(g, "ci95_low")) + " .. " + high + ", n=" +
           format_cell(field(g, "n")) + ")" +
           (field(r, "repeats_disagree") == true ? "  repeats disagree beyond their own noise" : "") + "\n";
  }
  return out;
}

std::string best_per_size_lines(const json& summary) {
  const auto rows = field(summary, "best_per_dtype_size");
  if (!rows.is_array() || rows.empty()) return {};
  std::string out = "best per dtype and size:\n";
  for (const auto& r : rows) {
    out += "  " + format_best_setting(r) + "\n";
    const auto over_idle = field(r, "over_idle");
    if (over_idle.is_object() && field(over_idle, "params") != field(r, "params"))
      out += "    over idle: " + format_best_over_idle(over_idle) + "\n";
  }
  return out;
}

// The declared tables the summary holds, one after the other.
std::string tables_text(const std::vector<const summary_table*>& tables, const json& summary) {
  std::string out;
  for (const auto* t : tables) out += format_summary_table(*t, summary);
  return out;
}

// "points: 3 ok, 1 skipped, 1 failed" and the reasons, from the runner's count.
std::string points_line(const nlohmann::json& summary) {
  const auto p = field(summary, "points");
  if (!p.is_object()) return {};
  std::string out = "points: " + format_cell(field(p, "ok")) + " ok, " + format_cell(field(p, "skipped")) +
                    " skipped, " + format_cell(field(p, "failed")) + " failed";
  // The states of points that ran without their main metrics, where there are any.
  for (const char* state : {"no_power", "unresolvable", "incomplete", "implausible"})
    if (field(p, state).is_number() && field(p, state).get<double>() > 0)
      out += ", " + format_cell(field(p, state)) + " " + state;
  out += "\n";
  for (const char* key : {"fail_reasons", "skip_reasons"}) {
    const auto reasons = field(p, key);
    if (!reasons.is_object()) continue;
    for (const auto& r : reasons.items())
      out += std::string("  ") + (key[0] == 'f' ? "failed" : "skipped") + " x" + format_cell(r.value()) + ": " +
             r.key() + "\n";
  }
  return out;
}

const std::vector<std::string> k_runner_keys = {"points", "caveats"};

// The summary keys the tables show.
std::vector<std::string> row_keys(const std::vector<const summary_table*>& tables) {
  std::vector<std::string> keys;
  for (const auto* t : tables) keys.push_back(t->rows);
  return keys;
}

std::vector<std::string> with_runner_keys(std::vector<std::string> keys) {
  keys.insert(keys.end(), k_runner_keys.begin(), k_runner_keys.end());
  return keys;
}

}  // namespace

std::string indent_lines(const std::string& text, const std::string& indent) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += (line.empty() ? "" : indent) + line + "\n";
  return out;
}

std::string caveat_lines(const nlohmann::json& j) {
  std::string out;
  const auto caveats = field(j, "caveats");
  if (caveats.is_array())
    for (const auto& c : caveats)
      if (c.is_string()) out += "caveat: " + c.get<std::string>() + "\n";
  return out;
}

std::string format_results_summary(const std::string& kind, const nlohmann::json& summary,
                                   const std::vector<summary_table>& tables) {
  if (!summary.is_object() || summary.empty()) return {};
  const std::string tail = points_line(summary) + caveat_lines(summary);
  if (is_gemm_summary(kind, summary)) return "\n" + most_efficient_line(summary) + repeat_lines(summary) + tail;
  const auto present = tables_in(tables, summary);
  if (!present.empty()) return "\nsummary:\n" + indent_lines(tables_text(present, summary) + tail, "  ");
  return "\nsummary:\n" + indent_lines(key_value_lines(summary, k_runner_keys) + tail, "  ");
}

std::string format_show_summary(const std::string& kind, const nlohmann::json& summary,
                                const std::vector<summary_table>& tables) {
  if (!summary.is_object() || summary.empty()) return {};
  const auto present = tables_in(tables, summary);
  std::string body;
  if (is_gemm_summary(kind, summary))
    body = most_efficient_line(summary) + best_per_size_lines(summary) + repeat_lines(summary) +
           key_value_lines(summary, with_runner_keys({"best_overall", "best_overall_over_idle", "best_per_dtype_size", "left_out", "repeats"}));
  else if (!present.empty())
    body = tables_text(present, summary) + key_value_lines(summary, with_runner_keys(row_keys(present)));
  else
    body = key_value_lines(summary, k_runner_keys);
  body += points_line(summary) + caveat_lines(summary);
  return "summary:\n" + indent_lines(body, "  ");
}

}  // namespace jetperf::client
