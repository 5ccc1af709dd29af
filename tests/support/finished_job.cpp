#include <support/finished_job.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace jetperf::test {

finished_job run_job(const daemon_process& d, http_client& http, const std::string& kind, const nlohmann::json& spec) {
  using nlohmann::json;
  const auto t0 = std::chrono::steady_clock::now();
  const auto res = http.request("POST", "/v1/jobs", json{{"kind", kind}, {"spec", spec}}.dump(),
                                {{"Authorization", "Bearer " + d.token()}});
  if (res.status != 201) throw std::runtime_error("submit failed: " + res.body);
  finished_job out;
  out.id = std::to_string(json::parse(res.body)["id"].get<long long>());
  for (;;) {
    const std::string state = json::parse(http.request("GET", "/v1/jobs/" + out.id).body)["state"];
    if (state != "queued" && state != "running") {
      if (state != "succeeded") throw std::runtime_error("job " + out.id + " ended " + state);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.results = json::parse(http.request("GET", "/v1/jobs/" + out.id + "/results").body);
  return out;
}

}  // namespace jetperf::test
