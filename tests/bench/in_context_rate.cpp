// Wall time to get every layer's power of a network on a simulated Orin's CPU (oneDNN, one
// thread, highest CPU clock): protocol in_context (end-to-end runs, per-layer power by
// equivalent-time sampling) against the isolated adaptive protocol run beside it, and against
// the seed's fixed protocol (latency_samples runs, then 5 s between 1 s boundaries and 2 s of
// rest per layer), whose time follows from its definition and the isolated latencies; with each
// layer's in-context power against its isolated one.
// Usage: bench_in_context_rate [model=resnet50] [granularity=block] [max_time_s=default]
//        [target_half_width=0.05] [isolated=1] [in_context_sensor_samples=auto]
//        [isolated_sensor_samples=as_is] (each "auto", "as_is" or a count: spec.sensor_samples)
//        [sample_period_ms=10] (the daemon's --sample-period-ms).
// Prints one JSON object.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/finished_job.hpp>
#include <support/http_client.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

double number(const json& row, const char* key) {
  return row.contains(key) && row[key].is_number() ? row[key].get<double>() : std::nan("");
}

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string model = argc > 1 ? argv[1] : "resnet50";
  const std::string granularity = argc > 2 ? argv[2] : "block";
  // "default": the spec's own (the shipped default is what a user gets).
  const std::string max_time_arg = argc > 3 ? argv[3] : "default";
  const double target = argc > 4 ? std::atof(argv[4]) : 0.05;
  const bool isolated = argc > 5 ? std::atoi(argv[5]) != 0 : true;
  const auto samples_arg = [&](int i, const char* fallback) {
    const std::string a = argc > i ? argv[i] : fallback;
    return a == "auto" || a == "as_is" ? json(a) : json(std::atoll(a.c_str()));
  };
  const json context_samples = samples_arg(6, "auto"), isolated_samples = samples_arg(7, "as_is");

  temp_dir sim;
  const std::string sample_period_ms = argc > 8 ? argv[8] : "10";
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn", "--sample-period-ms",
                    sample_period_ms});
  http_client http(d.port(), std::chrono::seconds(60));
  const json base = {{"models", model}, {"devices", "cpu"}, {"granularity", granularity}, {"threads", 1},
                     {"cpu_freqs", {"max"}}};
  auto context_spec = base;
  context_spec.update({{"protocol", "in_context"}, {"target_half_width", target}, {"sensor_samples", context_samples}});
  if (max_time_arg != "default") context_spec["max_time_s"] = std::atof(max_time_arg.c_str());
  const auto ctx = run_job(d, http, "layers", context_spec);
  json iso_rows = json::array();
  double iso_wall = std::nan("");
  if (isolated) {
    auto iso_spec = base;
    iso_spec.update({{"protocol", "adaptive"}, {"end_to_end", false}, {"sensor_samples", isolated_samples}});
    const auto iso = run_job(d, http, "layers", iso_spec);
    iso_rows = iso.results["rows"];
    iso_wall = iso.wall_s;
  }

  const auto& rows = ctx.results["rows"];
  const auto& e2e = rows.at(0);
  json layers = json::array();
  int resolved = 0, not_converged = 0, merged = 0, compared = 0, agreeing = 0;
  std::vector<double> rel_diffs;
  double seed_s = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& c = rows[i];
    const auto res = c.value("layer_resolution", std::string());
    resolved += res == "resolved";
    not_converged += res == "not_converged";
    merged += res == "merged";
    json layer = {{"layer", c["layer_name"]}, {"resolution", res}, {"power_w", c["power_w"]},
                  {"power_ci95_w", c["power_ci95_w"]}, {"latency_s", c["latency_mean_s"]}};
    if (i - 1 < iso_rows.size()) {
      const auto& s = iso_rows[i - 1];
      const double pi = number(s, "power_w"), pc = number(c, "power_w"), ci = number(c, "power_ci95_w");
      layer["isolated_power_w"] = s["power_w"];
      // The seed's protocol for this layer: its timed runs, then boundary + window + boundary, then the gap.
      seed_s += 100 * number(s, "latency_mean_s") + 1 + 5 + 1 + 2;
      if (res != "merged" && std::isfinite(pi) && std::isfinite(pc) && pi > 0) {
        ++compared;
        agreeing += std::fabs(pc - pi) <= 2 * ci + 0.1;
        rel_diffs.push_back(std::fabs(pc - pi) / pi);
        layer["rel_diff"] = std::fabs(pc - pi) / pi;
      }
    }
    layers.push_back(std::move(layer));
  }
  std::cout << json{{"benchmark", "in_context_rate"},
                    {"network", model},
                    {"granularity", granularity},
                    {"board", "sim:orin-agx, CPU backend (oneDNN), 1 thread, highest CPU clock"},
                    {"target_half_width", target},
                    {"max_time_s", json::parse(http.request("GET", "/v1/jobs/" + ctx.id).body)["spec"]["max_time_s"]},
                    {"sample_period_ms", std::atoi(sample_period_ms.c_str())},
                    {"in_context_sensor_samples", e2e["sensor_samples"]},
                    {"in_context_sensor_update_period_s", e2e["sensor_update_period_s"]},
                    {"isolated_sensor_samples", iso_rows.empty() ? json() : iso_rows[0]["sensor_samples"]},
                    {"in_context_wall_s", ctx.wall_s},
                    {"in_context_stop", e2e["stop_reason"]},
                    {"isolated_adaptive_wall_s", std::isfinite(iso_wall) ? json(iso_wall) : json()},
                    {"seed_fixed_protocol_s", isolated ? json(seed_s) : json()},
                    {"speedup_vs_isolated", std::isfinite(iso_wall) ? json(iso_wall / ctx.wall_s) : json()},
                    {"speedup_vs_seed", isolated ? json(seed_s / ctx.wall_s) : json()},
                    {"layers", rows.size() - 1},
                    {"resolved", resolved},
                    {"not_converged", not_converged},
                    {"merged", merged},
                    {"compared_with_isolated", compared},
                    {"within_2ci_plus_0_1_w", agreeing},
                    {"median_rel_diff", rel_diffs.empty() ? json() : json(median(rel_diffs))},
                    {"layer_energy_sum_j", e2e["layer_energy_sum_j"]},
                    {"end_to_end_energy_j", e2e["energy_j"]},
                    {"estimator", e2e["estimator"]},
                    {"per_layer", layers}}
                   .dump(2)
            << "\n";
  return 0;
}
