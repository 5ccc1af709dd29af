// Wall time to profile a network layer by layer (power and latency) on a simulated Orin with the
// CPU backend: jetperf's adaptive protocol against the seed's fixed one (5 s window between 1 s
// boundaries, 2 s gaps), and how far apart each layer's mean power lands.
// Usage: bench_layers_protocol [model=resnet50] [granularity=block] [latency_samples=100]
//        [threads=1] [window_s=5 boundary_s=1 gap_s=2]. Prints one JSON object. One CPU thread by
// default: on a 2-core machine the daemon's sampler and the simulator need the other core.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/finished_job.hpp>
#include <support/http_client.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

struct run {
  double wall_s = 0;
  json rows;
  json summary;
};

run profile(daemon_process& d, http_client& http, const json& spec) {
  const auto job = run_job(d, http, "layers", spec);
  return {job.wall_s, job.results["rows"], job.results["summary"]};
}

double number(const json& row, const char* key) {
  return row.contains(key) && row[key].is_number() ? row[key].get<double>() : std::nan("");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string model = argc > 1 ? argv[1] : "resnet50";
  const std::string granularity = argc > 2 ? argv[2] : "block";
  const int latency_samples = argc > 3 ? std::atoi(argv[3]) : 100;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  const double window_s = argc > 5 ? std::atof(argv[5]) : 5.0;
  const double boundary_s = argc > 6 ? std::atof(argv[6]) : 1.0;
  const double gap_s = argc > 7 ? std::atof(argv[7]) : 2.0;

  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn"});
  http_client http(d.port(), std::chrono::seconds(60));
  const json base = {{"models", model},         {"devices", "cpu"},  {"granularity", granularity},
                     {"latency_samples", latency_samples}, {"end_to_end", false}, {"threads", threads}};
  json adaptive_spec = base;
  adaptive_spec["protocol"] = "adaptive";
  json fixed_spec = base;
  fixed_spec.update({{"protocol", "fixed"}, {"window_s", window_s}, {"boundary_s", boundary_s}, {"gap_s", gap_s}});

  const auto adaptive = profile(d, http, adaptive_spec);
  const auto fixed = profile(d, http, fixed_spec);

  // Per layer: relative difference of the mean total power (and of each rail) to the fixed protocol's.
  json layers = json::array();
  double worst = 0, worst_rail = 0;
  int within = 0, compared = 0;
  for (std::size_t i = 0; i < std::min(adaptive.rows.size(), fixed.rows.size()); ++i) {
    const auto& a = adaptive.rows[i];
    const auto& f = fixed.rows[i];
    const double pa = number(a, "power_w"), pf = number(f, "power_w");
    if (!std::isfinite(pa) || !std::isfinite(pf) || pf <= 0) continue;
    const double rel = std::fabs(pa - pf) / pf;
    double rail_rel = 0;
    for (auto it = f.begin(); it != f.end(); ++it) {
      if (it.key().rfind("rail_", 0) != 0 || !it->is_number() || it->get<double>() <= 0.05) continue;
      const double ra = number(a, it.key().c_str());
      if (std::isfinite(ra)) rail_rel = std::max(rail_rel, std::fabs(ra - it->get<double>()) / it->get<double>());
    }
    ++compared;
    within += rel <= 0.03 ? 1 : 0;
    worst = std::max(worst, rel);
    worst_rail = std::max(worst_rail, rail_rel);
    layers.push_back({{"layer", a["layer_name"]},
                      {"adaptive_power_w", pa},
                      {"fixed_power_w", pf},
                      {"rel_diff", rel},
                      {"max_rail_rel_diff", rail_rel},
                      {"adaptive_window_s", a["window_s"]},
                      {"adaptive_stop", a["stop_reason"]},
                      {"adaptive_latency_s", a["latency_mean_s"]},
                      {"fixed_latency_s", f["latency_mean_s"]}});
  }
  std::cout << json{{"benchmark", "layers_protocol"},
                    {"network", model},
                    {"granularity", granularity},
                    {"board", "sim:orin-agx, CPU backend (oneDNN)"},
                    {"latency_samples", latency_samples},
                    {"threads", threads},
                    {"fixed_protocol", {{"window_s", window_s}, {"boundary_s", boundary_s}, {"gap_s", gap_s}}},
                    {"adaptive_wall_s", adaptive.wall_s},
                    {"fixed_wall_s", fixed.wall_s},
                    {"speedup", adaptive.wall_s > 0 ? fixed.wall_s / adaptive.wall_s : 0.0},
                    {"layers_compared", compared},
                    {"layers_power_within_3pct", within},
                    {"max_power_rel_diff", worst},
                    {"max_rail_rel_diff", worst_rail},
                    {"layers", layers}}
                   .dump(2)
            << "\n";
  return 0;
}
