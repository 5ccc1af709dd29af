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

// The exact line scripts and the quick start read; "-" with the reason when nothing qualified.
std::string most_efficient_line(const json& summary) {
  const auto& best = summary["best_overall"];
  return "most efficient: " +
         (best.is_object() ? format_best_setting(best) : std::string("- (no point measured power)")) + "\n";
}

std::string best_per_size_lines(const json& summary) {
  const auto rows = field(summary, "best_per_dtype_size");
  if (!rows.is_array() || rows.empty()) return {};
  std::string out = "best per dtype and size:\n";
  for (const auto& r : rows) out += "  " + format_best_setting(r) + "\n";
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

}  // namespace

std::string indent_lines(const std::string& text, const std::string& indent) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += (line.empty() ? "" : indent) + line + "\n";
  return out;
}

std::string format_results_summary(const std::string& kind, const nlohmann::json& summary) {
  if (!summary.is_object() || summary.empty()) return {};
  if (is_gemm_summary(kind, summary)) return "\n" + most_efficient_line(summary);
  if (is_layers_summary(kind, summary)) return "\nsummary:\n" + indent_lines(networks_table(summary), "  ");
  return "\nsummary:\n" + indent_lines(key_value_lines(summary), "  ");
}

std::string format_show_summary(const std::string& kind, const nlohmann::json& summary) {
  if (!summary.is_object() || summary.empty()) return {};
  std::string body;
  if (is_gemm_summary(kind, summary))
    body = most_efficient_line(summary) + best_per_size_lines(summary) +
           key_value_lines(summary, {"best_overall", "best_per_dtype_size"});
  else if (is_layers_summary(kind, summary))
    body = networks_table(summary) + key_value_lines(summary, {"networks"});
  else
    body = key_value_lines(summary);
  return "summary:\n" + indent_lines(body, "  ");
}

}  // namespace jetperf::client
