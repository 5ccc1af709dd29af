#include "summary_view.hpp"

#include <sstream>
#include <vector>

#include "output.hpp"

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

bool is_layers_summary(const std::string& kind, const json& summary) {
  return kind == "layers" && field(summary, "networks").is_array();
}

// "1 contended, 2 rse_unmet": the points a verdict left out, by why ("" for none).
std::string left_out_counts(const json& left_out) {
  std::string out;
  if (!left_out.is_object()) return out;
  for (const auto& [why, n] : left_out.items()) out += (out.empty() ? "" : ", ") + format_cell(n) + " " + why;
  return out;
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
    out += "left out of the verdict: " + left +
           " (contended: other processes took CPU time from the window; rse_unmet: short of its precision target)\n";
  return out;
}

// "float 256x256x256 cpu_freq_khz=...: 37.4 GFLOP/s (95% 36.1 .. 38.7, n=3) DISAGREE" per group.
std::string repeat_lines(const json& summary) {
  const auto rows = field(summary, "repeats");
  if (!rows.is_array() || rows.empty()) return {};
  std::string out = "across repeats (mean, 95% interval):\n";
  for (const auto& r : rows) {
    const auto g = field(r, "gflops");
    out += "  " + format_params(r, {"device", "gflops", "gflops_per_w", "repeats_disagree"}) + ": " +
           format_cell(field(g, "mean")) + " GFLOP/s (" + format_cell(field(g, "ci95_low")) + " .. " +
           format_cell(field(g, "ci95_high")) + ", n=" + format_cell(field(g, "n")) + ")" +
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

// One row per network, device and board setting: how much of it was measured, how long the
// whole network took, how far the layers' sum is from it, and the energy of both.
std::string networks_table(const json& summary) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : summary["networks"]) {
    if (!n.is_object()) continue;
    rows.push_back({format_cell(field(n, "network")), format_cell(field(n, "device")), format_cell(field(n, "setting")),
                    format_cell(field(n, "layers_measured")) + "/" + format_cell(field(n, "layers")),
                    format_cell(field(n, "end_to_end_latency_s")), format_cell(field(n, "layers_over_end_to_end")),
                    format_cell(field(n, "layer_energy_sum_j")), format_cell(field(n, "end_to_end_energy_j"))});
  }
  if (rows.empty()) return "networks: -\n";
  return format_table({"network", "device", "setting", "layers", "end_to_end_s", "layers/e2e", "layer_energy_j",
                       "end_to_end_j"},
                      rows);
}

bool is_command_summary(const std::string& kind, const json& summary) {
  return kind == "command" && field(summary, "settings").is_array();
}

// "cpu_freq_khz=115200,gpu_freq_hz=..." for a setting's non-null values ("as is" when none).
std::string setting_text(const json& setting) {
  std::string out;
  if (setting.is_object())
    for (const auto& kv : setting.items())
      if (!kv.value().is_null()) out += (out.empty() ? "" : ",") + kv.key() + "=" + format_cell(kv.value());
  return out.empty() ? "as is" : out;
}

// A command job per board setting: its runs' median wall time and energy, then each marked
// phase's mean time and energy per run.
std::string command_tables(const json& summary) {
  std::vector<std::vector<std::string>> runs, phases;
  for (const auto& s : summary["settings"]) {
    if (!s.is_object()) continue;
    const auto label = setting_text(field(s, "setting"));
    runs.push_back({label, format_cell(field(s, "runs")), format_cell(field(s, "wall_median_s")),
                    format_cell(field(s, "energy_median_j"))});
    const auto ph = field(s, "phases");
    if (!ph.is_object()) continue;
    for (const auto& p : ph.items())
      phases.push_back({label, p.key(), format_cell(field(p.value(), "runs")), format_cell(field(p.value(), "time_mean_s")),
                        format_cell(field(p.value(), "energy_mean_j"))});
  }
  if (runs.empty()) return "runs: -\n";
  std::string out = format_table({"setting", "runs", "wall_median_s", "energy_median_j"}, runs);
  if (!phases.empty())
    out += "phases (mean per run):\n" + format_table({"setting", "phase", "runs", "time_mean_s", "energy_mean_j"}, phases);
  return out;
}

// "points: 3 ok, 1 skipped, 1 failed" and the reasons, from the runner's count.
std::string points_line(const nlohmann::json& summary) {
  const auto p = field(summary, "points");
  if (!p.is_object()) return {};
  std::string out = "points: " + format_cell(field(p, "ok")) + " ok, " + format_cell(field(p, "skipped")) +
                    " skipped, " + format_cell(field(p, "failed")) + " failed";
  // The states of points that ran without their main metrics, where there are any.
  for (const char* state : {"no_power", "unresolvable", "incomplete"})
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

std::string format_results_summary(const std::string& kind, const nlohmann::json& summary) {
  if (!summary.is_object() || summary.empty()) return {};
  const std::string tail = points_line(summary) + caveat_lines(summary);
  if (is_gemm_summary(kind, summary)) return "\n" + most_efficient_line(summary) + repeat_lines(summary) + tail;
  if (is_layers_summary(kind, summary)) return "\nsummary:\n" + indent_lines(networks_table(summary) + tail, "  ");
  if (is_command_summary(kind, summary)) return "\nsummary:\n" + indent_lines(command_tables(summary) + tail, "  ");
  return "\nsummary:\n" + indent_lines(key_value_lines(summary, k_runner_keys) + tail, "  ");
}

std::string format_show_summary(const std::string& kind, const nlohmann::json& summary) {
  if (!summary.is_object() || summary.empty()) return {};
  std::string body;
  if (is_gemm_summary(kind, summary))
    body = most_efficient_line(summary) + best_per_size_lines(summary) + repeat_lines(summary) +
           key_value_lines(summary, with_runner_keys({"best_overall", "best_overall_over_idle", "best_per_dtype_size", "left_out", "repeats"}));
  else if (is_layers_summary(kind, summary))
    body = networks_table(summary) + key_value_lines(summary, with_runner_keys({"networks"}));
  else if (is_command_summary(kind, summary))
    body = command_tables(summary) + key_value_lines(summary, with_runner_keys({"settings"}));
  else
    body = key_value_lines(summary, k_runner_keys);
  body += points_line(summary) + caveat_lines(summary);
  return "summary:\n" + indent_lines(body, "  ");
}

}  // namespace jetperf::client
