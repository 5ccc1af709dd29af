// GET /v1/health throughput and latency against a real jetperfd on loopback, from C++ threads with
// keep-alive connections, and from `wrk` when it is on PATH (reported separately).
// Prints one JSON object. Target (DESIGN.md section 8): >= 20k requests/s on 2 cores.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <regex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/http_client.hpp>
#include <support/run_client.hpp>

using namespace jetperf::test;

namespace {

double percentile_ms(std::vector<std::int64_t>& ns, double p) {
  if (ns.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(ns.size() - 1));
  std::nth_element(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(k), ns.end());
  return static_cast<double>(ns[k]) / 1e6;
}

nlohmann::json run_threads(int port, int threads, std::chrono::seconds duration) {
  std::vector<std::vector<std::int64_t>> lat(threads);
  std::atomic<std::int64_t> errors{0};
  std::vector<std::thread> pool;
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + duration;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      http_client http(port);
      lat[t].reserve(1 << 20);
      while (true) {
        const auto t0 = std::chrono::steady_clock::now();
        if (t0 >= end) break;
        try {
          if (http.request("GET", "/v1/health").status != 200) ++errors;
        } catch (const std::exception&) {
          ++errors;
          http.close();
        }
        lat[t].push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
      }
    });
  for (auto& th : pool) th.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::int64_t> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  const auto n = all.size();
  return {{"connections", threads},
          {"requests", n},
          {"errors", errors.load()},
          {"duration_s", secs},
          {"requests_per_s", static_cast<double>(n) / secs},
          {"p50_ms", percentile_ms(all, 0.50)},
          {"p99_ms", percentile_ms(all, 0.99)}};
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "";
  std::size_t start = 0;
  while (start <= p.size()) {
    const auto colon = p.find(':', start);
    const auto dir = p.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const auto candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return {};
}

// wrk prints latencies like "1.23ms", "850.00us", "1.02s".
double wrk_ms(const std::string& value, const std::string& unit) {
  const double v = std::stod(value);
  if (unit == "us") return v / 1000.0;
  if (unit == "s") return v * 1000.0;
  return v;
}

nlohmann::json run_wrk(const std::string& wrk, int port, int connections, int seconds) {
  const auto r = run_program({wrk, "-t2", "-c" + std::to_string(connections), "-d" + std::to_string(seconds) + "s",
                              "--latency", "http://127.0.0.1:" + std::to_string(port) + "/v1/health"},
                             {}, seconds + 30);
  nlohmann::json out{{"connections", connections}, {"threads", 2}, {"exit_code", r.exit_code}};
  std::smatch m;
  if (std::regex_search(r.out, m, std::regex(R"(Requests/sec:\s+([0-9.]+))"))) out["requests_per_s"] = std::stod(m[1]);
  if (std::regex_search(r.out, m, std::regex(R"(\n\s+50%\s+([0-9.]+)(us|ms|s))"))) out["p50_ms"] = wrk_ms(m[1], m[2]);
  if (std::regex_search(r.out, m, std::regex(R"(\n\s+99%\s+([0-9.]+)(us|ms|s))"))) out["p99_ms"] = wrk_ms(m[1], m[2]);
  if (std::regex_search(r.out, m, std::regex(R"(Non-2xx or 3xx responses:\s+([0-9]+))"))) out["non_2xx"] = std::stoll(m[1]);
  if (std::regex_search(r.out, m, std::regex(R"(Socket errors:[^\n]*)"))) out["socket_errors"] = m[0].str();
  if (!out.contains("requests_per_s")) out["raw"] = r.out + r.err;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const int threads = argc > 2 ? std::max(1, std::atoi(argv[2])) : 8;
  try {
    daemon_process daemon;
    nlohmann::json report{{"benchmark", "http_health"},
                          {"target_requests_per_s", 20000},
                          {"hardware_threads", std::thread::hardware_concurrency()}};
    report["cpp_keepalive"] = run_threads(daemon.port(), threads, std::chrono::seconds(seconds));
    const auto wrk = find_on_path("wrk");
    if (wrk.empty())
      report["wrk"] = {{"skipped", "wrk not found on PATH"}};
    else
      report["wrk"] = run_wrk(wrk, daemon.port(), 50, seconds);
    std::cout << report.dump(2) << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cout << nlohmann::json{{"benchmark", "http_health"}, {"error", e.what()}}.dump(2) << std::endl;
    return 1;
  }
}
