#include <support/eta_trial.hpp>

#include <stdexcept>
#include <thread>

namespace jetperf::test {

namespace {

nlohmann::json basis_of(const nlohmann::json& job) {
  const auto& p = job.value("progress", nlohmann::json::object());
  return p.contains("eta_basis") ? p["eta_basis"] : nlohmann::json();
}

bool ended(const std::string& state) { return state != "queued" && state != "running"; }

}  // namespace

nlohmann::json eta_trial::to_json() const {
  return {{"id", id},
          {"state", state},
          {"estimate_s", estimate_s},
          {"submit_basis", submit_basis},
          {"done_seen", done_seen},
          {"first_eta_s", first_eta_s},
          {"first_basis", first_basis},
          {"truth_s", truth_s},
          {"total_s", total_s},
          {"ratio", ratio()}};
}

eta_trial run_eta_trial(http_client& http, const std::string& token, const std::string& kind,
                        const nlohmann::json& spec, std::chrono::seconds timeout) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto submitted = http.request("POST", "/v1/jobs", nlohmann::json{{"kind", kind}, {"spec", spec}}.dump(),
                                      {{"Authorization", "Bearer " + token}});
  if (submitted.status != 201) throw std::runtime_error("submit " + kind + " failed: " + submitted.body);
  const auto job = nlohmann::json::parse(submitted.body);
  eta_trial t;
  t.id = job["id"].get<std::int64_t>();
  t.estimate_s = job["estimate_s"].get<double>();
  t.submit_basis = basis_of(job);
  clock::time_point seen{};
  for (const auto deadline = t0 + timeout; clock::now() < deadline;) {
    const auto view = nlohmann::json::parse(http.request("GET", "/v1/jobs/" + std::to_string(t.id)).body);
    const auto now = clock::now();
    t.state = view.value("state", std::string());
    const auto done = view["progress"].value("done", std::int64_t{0});
    if (t.first_eta_s < 0 && done > 0 && t.state == "running" && view["progress"]["eta_s"].is_number()) {
      t.first_eta_s = view["progress"]["eta_s"].get<double>();
      t.first_basis = basis_of(view);
      t.done_seen = done;
      seen = now;
    }
    if (ended(t.state)) {
      t.total_s = std::chrono::duration<double>(now - t0).count();
      if (t.first_eta_s >= 0) t.truth_s = std::chrono::duration<double>(now - seen).count();
      return t;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error(kind + " job " + std::to_string(t.id) + " did not end within " +
                           std::to_string(timeout.count()) + " s");
}

}  // namespace jetperf::test
