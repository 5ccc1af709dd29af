// Requests per second through api::router::handle (no sockets): the upper bound the HTTP layer
// can reach for GET /v1/health, a job read and a listing. Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/json_workload.hpp"
#include <jetperf/api/router.hpp>
#include <jetperf/kinds/idle/idle_kind.hpp>
#include <jetperf/store/database.hpp>

namespace {

nlohmann::json measure(const jetperf::api::router& router, const jetperf::api::http_request& req, int n) {
  std::vector<double> us;
  us.reserve(n);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto res = router.handle(req);
    const auto t1 = std::chrono::steady_clock::now();
    if (res.status != 200) std::fprintf(stderr, "unexpected status %d: %s\n", res.status, res.body.c_str());
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::sort(us.begin(), us.end());
  return {{"requests", n},
          {"requests_per_s", n / total_s},
          {"p50_us", us[us.size() / 2]},
          {"p99_us", us[us.size() * 99 / 100]}};
}

}  // namespace

int main() {
  jetperf::store::database db(":memory:");
  jetperf::jobs::workload_registry registry;
  registry.add(jetperf::kinds::make_idle_kind());
  jetperf::event_hub hub;
  jetperf::jobs::job_service service(db, registry, hub, nullptr, nullptr);
  for (int i = 0; i < 100; ++i) service.submit("idle", jetperf::test::spec_of({{"repeats", 3}}), {"bench"});
  jetperf::api::services s;
  s.jobs = &service;
  s.hub = &hub;
  s.auth.token = "bench-token";
  jetperf::api::router router(s);

  jetperf::api::http_request health;
  health.method = "GET";
  health.target = "/v1/health";
  auto job = health;
  job.target = "/v1/jobs/50";
  auto list = health;
  list.target = "/v1/jobs?limit=50&tag=bench";

  nlohmann::json out = {{"bench", "api_router"},
                        {"threads", 1},
                        {"health", measure(router, health, 200000)},
                        {"get_job", measure(router, job, 20000)},
                        {"list_50_jobs", measure(router, list, 500)}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
