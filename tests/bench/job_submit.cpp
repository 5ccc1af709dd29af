// Jobs accepted and persisted per second: POST /v1/jobs of tiny idle jobs from keep-alive C++
// threads against a real jetperfd, then the count checked through GET /v1/jobs (and after a
// restart, so they were really on disk). Prints one JSON object.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/http_client.hpp>

using namespace jetperf::test;

namespace {

std::int64_t listed_total(int port) {
  http_client http(port);
  const auto r = http.request("GET", "/v1/jobs?kind=idle&limit=1");
  const auto j = nlohmann::json::parse(r.body, nullptr, false);
  return j.is_object() ? j.value("total", std::int64_t{-1}) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  // Below the daemon's default queue bound (1000), so every submission should be accepted.
  const int jobs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 900;
  const int threads = argc > 2 ? std::max(1, std::atoi(argv[2])) : 4;
  try {
    daemon_process daemon;
    std::atomic<int> next{0};
    std::atomic<int> accepted{0}, rejected{0};
    std::vector<std::vector<std::int64_t>> lat(threads);
    const std::string body = R"({"kind":"idle","spec":{"duration_s":0.001},"tags":["bench"]})";
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        http_client http(daemon.port());
        const std::map<std::string, std::string> auth{{"Authorization", "Bearer " + daemon.token()}};
        while (next.fetch_add(1) < jobs) {
          const auto t0 = std::chrono::steady_clock::now();
          const auto r = http.request("POST", "/v1/jobs", body, auth);
          lat[t].push_back(
              std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
          (r.status == 201 ? accepted : rejected)++;
        }
      });
    for (auto& th : pool) th.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<std::int64_t> all;
    for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
    std::sort(all.begin(), all.end());
    auto pct = [&all](double p) {
      return all.empty() ? 0.0 : static_cast<double>(all[static_cast<std::size_t>(p * (all.size() - 1))]) / 1e6;
    };
    const auto listed = listed_total(daemon.port());
    daemon.restart();
    const auto listed_after_restart = listed_total(daemon.port());
    nlohmann::json report{{"benchmark", "job_submit"},
                          {"threads", threads},
                          {"submitted", jobs},
                          {"accepted", accepted.load()},
                          {"rejected", rejected.load()},
                          {"duration_s", secs},
                          {"jobs_per_s", accepted.load() / secs},
                          {"p50_ms", pct(0.5)},
                          {"p99_ms", pct(0.99)},
                          {"listed", listed},
                          {"listed_after_restart", listed_after_restart},
                          {"all_persisted", listed == accepted.load() && listed_after_restart == accepted.load()}};
    std::cout << report.dump(2) << std::endl;
    return report["all_persisted"].get<bool>() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << nlohmann::json{{"benchmark", "job_submit"}, {"error", e.what()}}.dump(2) << std::endl;
    return 1;
  }
}
