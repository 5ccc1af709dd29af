// /v1/health latency while other requests wait: a cancel that waits for a running job's next safe
// point (a GEMM run of seconds at the lowest simulated CPU clock), and a stream of nvpmodel
// queries (GET /v1/power-mode). Those requests run on the work pool, so the io thread (one here,
// to make the point) answers /v1/health meanwhile. Target (issue "Hardening" 4): p99 < 10 ms.
// Usage: bench_health_during_waits [runs=3]. Prints one JSON object.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/http_client.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

double percentile_ms(std::vector<std::int64_t> ns, double p) {
  if (ns.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(ns.size() - 1));
  std::nth_element(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(k), ns.end());
  return static_cast<double>(ns[k]) / 1e6;
}

json one_run(daemon_process& d) {
  http_client http(d.port(), std::chrono::seconds(60));
  const std::map<std::string, std::string> auth{{"Authorization", "Bearer " + d.token()}};
  // One GEMM of 2560^3 on one thread at 115 MHz: seconds per run, and a cancel waits for the run.
  const json spec = {{"device", "cpu"}, {"dtypes", {"float"}}, {"sizes", {2560}}, {"cpu_freqs", {"min"}},
                     {"threads", 1},    {"warmup_s", 0.0},     {"min_time_s", 0.5},  {"max_time_s", 60.0}, {"min_samples", 20}};
  const auto res = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", spec}}.dump(), auth);
  if (res.status != 201) throw std::runtime_error("submit: " + res.body);
  const auto id = json::parse(res.body)["id"].get<long long>();
  for (int i = 0; i < 600; ++i) {
    if (json::parse(http.request("GET", "/v1/jobs/" + std::to_string(id)).body)["state"] == "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::seconds(4));  // past the idle baseline: a run under way

  std::atomic<bool> waiting{true};
  std::vector<std::int64_t> health_ns, mode_ns;
  std::thread modes([&] {
    http_client c(d.port(), std::chrono::seconds(60));
    while (waiting) {
      const auto t0 = std::chrono::steady_clock::now();
      c.request("GET", "/v1/power-mode");
      mode_ns.push_back((std::chrono::steady_clock::now() - t0).count());
    }
  });
  std::thread health([&] {
    http_client c(d.port(), std::chrono::seconds(60));
    while (waiting) {
      const auto t0 = std::chrono::steady_clock::now();
      if (c.request("GET", "/v1/health").status != 200) throw std::runtime_error("health failed");
      health_ns.push_back((std::chrono::steady_clock::now() - t0).count());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  const auto t0 = std::chrono::steady_clock::now();
  http_client canceller(d.port(), std::chrono::seconds(60));
  const auto cancel = canceller.request("DELETE", "/v1/jobs/" + std::to_string(id), {}, auth);
  const double cancel_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  waiting = false;
  modes.join();
  health.join();
  return {{"cancel_status", cancel.status},
          {"cancel_waited_s", cancel_s},
          {"health_requests", health_ns.size()},
          {"health_p50_ms", percentile_ms(health_ns, 0.5)},
          {"health_p99_ms", percentile_ms(health_ns, 0.99)},
          {"health_max_ms", percentile_ms(health_ns, 1.0)},
          {"power_mode_queries", mode_ns.size()},
          {"power_mode_p50_ms", percentile_ms(mode_ns, 0.5)}};
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn", "--threads", "1"});
  json out = json::array();
  std::vector<double> p99;
  for (int i = 0; i < runs; ++i) {
    out.push_back(one_run(d));
    p99.push_back(out.back()["health_p99_ms"].get<double>());
    std::cerr << out.back().dump() << "\n";
  }
  std::sort(p99.begin(), p99.end());
  std::cout << json{{"benchmark", "health_during_waits"},
                    {"daemon", "sim:orin-agx, one HTTP io thread"},
                    {"target", "/v1/health p99 < 10 ms while a cancel and nvpmodel queries wait"},
                    {"runs", out},
                    {"health_p99_ms_median", p99[p99.size() / 2]}}
                   .dump(2)
            << "\n";
  return 0;
}
