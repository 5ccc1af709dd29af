// Wall time of a 24-point CPU GEMM sweep on a simulated Orin, with adaptive stopping versus the
// seed's fixed per-point duration, and the relative standard errors each reports.
// Usage: bench_gemm_sweep_time [fixed_duration_s=3] [target_rse=0.01] [adaptive]. Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/http_client.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

json run_sweep(daemon_process& d, http_client& http, json spec) {
  // 6 sizes x 2 dtypes x 2 CPU clocks = 24 points.
  spec.update({{"device", "cpu"},
               {"dtypes", {"float", "double"}},
               {"sizes", {128, 192, 256, 320, 384, 448}},
               {"cpu_freqs", {"min", "max"}},
               {"threads", 1}});
  const auto t0 = std::chrono::steady_clock::now();
  const auto res = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", spec}}.dump(),
                                {{"Authorization", "Bearer " + d.token()}});
  if (res.status != 201) throw std::runtime_error("submit failed: " + res.body);
  const auto id = json::parse(res.body)["id"].get<long long>();
  std::string state;
  for (;;) {
    state = json::parse(http.request("GET", "/v1/jobs/" + std::to_string(id)).body)["state"];
    if (state != "queued" && state != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto results = json::parse(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results").body);
  double rse_sum = 0, rse_max = 0;
  int n = 0;
  json stops = json::object();
  json points = json::array();
  for (const auto& row : results["rows"]) {
    const auto reason = row.value("stop_reason", json()).is_string() ? row["stop_reason"].get<std::string>() : "";
    stops[reason] = stops.value(reason, 0) + 1;
    // Each point in brief, for reading where the time went.
    json brief = json::object();
    for (const char* k : {"m", "dtype", "cpu_freq_khz", "stop_reason", "unmet", "iterations", "window_s",
                          "time_mean_s", "time_rse", "projected_rse", "power_rse", "retries", "others_cpu_share"})
      if (row.contains(k)) brief[k] = row[k];
    points.push_back(brief);
    if (!row.contains("time_rse") || !row["time_rse"].is_number()) continue;
    const double r = row["time_rse"].get<double>();
    rse_sum += r;
    rse_max = std::max(rse_max, r);
    ++n;
  }
  return {{"state", state},
          {"points", results["rows"].size()},
          {"wall_s", wall},
          {"stop_reasons", stops},
          {"time_rse_mean", n ? rse_sum / n : 0.0},
          {"each", points},
          {"time_rse_max", rse_max}};
}

}  // namespace

int main(int argc, char** argv) {
  const double fixed_s = argc > 1 ? std::atof(argv[1]) : 3.0;
  const double target = argc > 2 ? std::atof(argv[2]) : 0.01;
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn"});
  http_client http(d.port(), std::chrono::seconds(60));
  const auto adaptive = run_sweep(d, http,
                                  {{"target_rse", target}, {"min_time_s", 0.2}, {"max_time_s", 5.0},
                                   {"warmup_s", 0.1}, {"boundary_s", 0.05}});
  // A third argument "adaptive" leaves the fixed sweep out (for reading the adaptive points alone).
  const bool adaptive_only = argc > 3 && std::string(argv[3]) == "adaptive";
  const auto fixed = adaptive_only ? json{{"wall_s", 0.0}}
                                   : run_sweep(d, http, {{"duration_s", fixed_s}, {"warmup_s", 0.1}, {"boundary_s", 0.05}});
  std::cout << json{{"benchmark", "gemm_sweep_time"},
                    {"sweep", "24 points: sizes 128..448 x float,double x cpu min,max (CPU backend, sim:orin-agx)"},
                    {"adaptive", adaptive},
                    {"fixed", fixed},
                    {"fixed_duration_s", fixed_s},
                    {"target_rse", target},
                    {"speedup", adaptive["wall_s"].get<double>() > 0
                                    ? fixed["wall_s"].get<double>() / adaptive["wall_s"].get<double>()
                                    : 0.0}}
                   .dump(2)
            << "\n";
  return 0;
}
