// How close the daemon's estimates come to how long jobs take: ten varied gemm and layers jobs
// (sizes, dtypes, batches, input sizes, clocks, both protocols) run one after another on a
// simulated Orin with the CPU backends, on one daemon, so later jobs are estimated from what
// earlier ones measured (the cost model); in the first round the first job of each kind has only
// the nominal guess, in later rounds every job has the history of the rounds before.
// Usage: bench_estimates [rounds=1]. Prints one JSON object: per job the estimate given at
// submission, the time from submission to its end, and their ratio.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/http_client.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

struct job_case {
  const char* what;
  const char* kind;
  json spec;
};

json run(daemon_process& d, http_client& http, const job_case& c) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto res = http.request("POST", "/v1/jobs", json{{"kind", c.kind}, {"spec", c.spec}}.dump(),
                                {{"Authorization", "Bearer " + d.token()}});
  if (res.status != 201) throw std::runtime_error(std::string("submit failed: ") + res.body);
  const auto submitted = json::parse(res.body);
  const auto id = submitted["id"].get<long long>();
  std::string state;
  for (;;) {
    state = json::parse(http.request("GET", "/v1/jobs/" + std::to_string(id)).body)["state"];
    if (state != "queued" && state != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double actual = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double estimate = submitted["estimate_s"].get<double>();
  return {{"job", c.what},     {"kind", c.kind},          {"state", state},
          {"points", submitted["progress"]["total"]}, {"estimate_s", estimate}, {"actual_s", actual},
          {"ratio", actual > 0 ? estimate / actual : 0.0}};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1;
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn"});
  http_client http(d.port(), std::chrono::seconds(60));
  const json quick_gemm = {{"device", "cpu"}, {"threads", 1}, {"warmup_s", 0.05}, {"min_time_s", 0.2},
                           {"max_time_s", 3.0}, {"target_rse", 0.02}};
  const json quick_layers = {{"device", "cpu"}, {"threads", 1}, {"latency_samples", 20}, {"warmup_runs", 2},
                             {"min_time_s", 0.1}, {"max_time_s", 2.0}, {"target_rse", 0.02}};
  const auto with = [](json base, const json& extra) {
    base.update(extra);
    return base;
  };
  const std::vector<job_case> cases = {
      {"gemm float 64,128,256 at the lowest and highest CPU clock", "gemm",
       with(quick_gemm, {{"dtypes", {"float"}}, {"sizes", {64, 128, 256}}, {"cpu_freqs", {"min", "max"}}})},
      {"gemm float 512,1024, min_samples 10", "gemm",
       with(quick_gemm, {{"dtypes", {"float"}}, {"sizes", {512, 1024}}, {"min_samples", 10}})},
      {"gemm double 128..512 step 128 at the highest clock", "gemm",
       with(quick_gemm, {{"dtypes", {"double"}}, {"sizes", "128:512:128"}, {"cpu_freqs", {"max"}}})},
      {"gemm float 1536 at a middle clock, min_samples 5", "gemm",
       with(quick_gemm, {{"dtypes", {"float"}}, {"sizes", {1536}}, {"cpu_freqs", {1113600}}, {"min_samples", 5}})},
      {"gemm float,double 128,256 fixed 0.4 s windows", "gemm",
       with(quick_gemm, {{"dtypes", {"float", "double"}}, {"sizes", {128, 256}}, {"duration_s", 0.4}})},
      {"layers resnet18 blocks, batch 1", "layers", with(quick_layers, {{"models", "resnet18"}})},
      {"layers mobilenet_v2 blocks, batch 4", "layers", with(quick_layers, {{"models", "mobilenet_v2"}, {"batch", 4}})},
      {"layers squeezenet1_0 blocks, batch 1 and 2, at the highest clock", "layers",
       with(quick_layers, {{"models", "squeezenet1_0"}, {"batch", {1, 2}}, {"cpu_freqs", {"max"}}})},
      {"layers alexnet blocks, fixed protocol 0.2 s windows", "layers",
       with(quick_layers, {{"models", "alexnet"}, {"protocol", "fixed"}, {"window_s", 0.2}, {"boundary_s", 0.05},
                           {"gap_s", 0.05}})},
      {"layers efficientnet_b0 blocks at 160 and 224 pixels", "layers",
       with(quick_layers, {{"models", "efficientnet_b0"}, {"input_size", {160, 224}}})},
  };
  json out_rounds = json::array();
  bool all_within = true;
  for (int round = 0; round < rounds; ++round) {
    json jobs = json::array();
    int within = 0;
    double worst = 1;
    for (const auto& c : cases) {
      auto r = run(d, http, c);
      const double ratio = r["ratio"].get<double>();
      if (ratio >= 0.5 && ratio <= 2.0) ++within;
      if (ratio > 0) worst = std::max(worst, std::max(ratio, 1 / ratio));
      std::cerr << r.dump() << "\n";
      jobs.push_back(std::move(r));
    }
    all_within = all_within && within == static_cast<int>(cases.size());
    out_rounds.push_back({{"round", round + 1}, {"jobs", jobs}, {"within_2x", within}, {"of", cases.size()},
                          {"worst_factor", worst}});
  }
  std::cout << json{{"benchmark", "estimates"},
                    {"board", "sim:orin-agx, CPU backends (OpenBLAS, oneDNN), one thread"},
                    {"target", "every estimate within 2x of the actual time"},
                    {"rounds", out_rounds}}
                   .dump(2)
            << "\n";
  return all_within ? 0 : 1;
}
