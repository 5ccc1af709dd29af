// Mappings per hour of the multi_dnn kind on a simulated Orin with the CPU backend (oneDNN):
// jetperf's adaptive windows (stop once every network's throughput and the power reach the
// target RSE) against the seed's fixed 30 s windows (2 s boundaries), over generated CPU-only
// mappings of 2-4 small zoo networks, with the throughput RSE each protocol reached.
// Usage: bench_multi_dnn_rate [samples=4] [fixed_samples=1] [target_rse=0.01] [window_s=30]
//        [boundary_s=2] [num_networks=2:4]. Prints one JSON object. The seed documents about 54
//        mappings an hour.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

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
  std::size_t mappings = 0;
  std::vector<double> rse;  ///< every network's throughput RSE, one per network per mapping
  std::vector<double> window_s;
};

run measure(daemon_process& d, http_client& http, const json& spec) {
  const auto job = run_job(d, http, "multi_dnn", spec);
  run r;
  r.wall_s = job.wall_s;
  const auto& rows = job.results["rows"];
  std::int64_t last_mapping = -1;
  std::string last_network;
  for (const auto& row : rows) {
    if (row["status"] != "ok") continue;
    const auto m = row["mapping_id"].get<std::int64_t>();
    if (m != last_mapping) {
      ++r.mappings;
      r.window_s.push_back(row["window_s"].get<double>());
      last_network.clear();
    }
    // One RSE per network: its stages repeat it.
    if (row["network"] != last_network || m != last_mapping)
      r.rse.push_back(row["network_throughput_rse"].is_number() ? row["network_throughput_rse"].get<double>() : 1.0);
    last_mapping = m;
    last_network = row["network"];
  }
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

json describe(const run& r) {
  return {{"mappings", r.mappings},
          {"wall_s", r.wall_s},
          {"mappings_per_hour", r.wall_s > 0 ? 3600.0 * static_cast<double>(r.mappings) / r.wall_s : 0.0},
          {"median_window_s", median(r.window_s)},
          {"throughput_rse_median", median(r.rse)},
          {"throughput_rse_max", r.rse.empty() ? 0.0 : *std::max_element(r.rse.begin(), r.rse.end())}};
}

}  // namespace

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 4;
  const int fixed_samples = argc > 2 ? std::atoi(argv[2]) : 1;
  const double target_rse = argc > 3 ? std::atof(argv[3]) : 0.01;
  const double window_s = argc > 4 ? std::atof(argv[4]) : 30.0;
  const double boundary_s = argc > 5 ? std::atof(argv[5]) : 2.0;
  const std::string num_networks = argc > 6 ? argv[6] : "2:4";

  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn"});
  http_client http(d.port(), std::chrono::seconds(60));
  // The CPU at its highest clock: below it the simulator holds each busy thread to a CPU quota.
  const json base = {{"networks", {"squeezenet1_0", "shufflenet_v2_x0_5", "mobilenet_v3_small", "mnasnet0_5"}},
                     {"num_networks", num_networks}, {"device_priorities", "cpu=1"}, {"seed", 5}, {"threads", 1},
                     {"cpu_freqs", "max"}};
  json adaptive_spec = base;
  adaptive_spec.update({{"samples", samples}, {"protocol", "adaptive"}, {"target_rse", target_rse}});
  json fixed_spec = base;
  fixed_spec.update({{"samples", fixed_samples}, {"protocol", "fixed"}, {"window_s", window_s}, {"boundary_s", boundary_s}});

  const auto adaptive = measure(d, http, adaptive_spec);
  const auto fixed = measure(d, http, fixed_spec);
  const auto a = describe(adaptive), f = describe(fixed);
  const double ratio = f["mappings_per_hour"].get<double>() > 0
                           ? a["mappings_per_hour"].get<double>() / f["mappings_per_hour"].get<double>()
                           : 0.0;
  std::cout << json{{"benchmark", "multi_dnn_rate"},
                    {"board", "sim:orin-agx at its highest CPU clock, CPU backend (oneDNN), one thread per network"},
                    {"networks", base["networks"]},
                    {"num_networks", num_networks},
                    {"target_rse", target_rse},
                    {"fixed_protocol", {{"window_s", window_s}, {"boundary_s", boundary_s}}},
                    {"adaptive", a},
                    {"fixed", f},
                    {"adaptive_over_fixed", ratio},
                    {"seed_documented_mappings_per_hour", 54},
                    {"adaptive_over_seed_documented", a["mappings_per_hour"].get<double>() / 54.0}}
                   .dump(2)
            << "\n";
  return 0;
}
