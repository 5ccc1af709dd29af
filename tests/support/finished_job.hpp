#pragma once
// Submits one job to a test daemon and waits for it to succeed: what every benchmark that times a
// whole job does (wall time from submit to the end, then its results).
#include <string>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/http_client.hpp>

namespace jetperf::test {

struct finished_job {
  std::string id;
  double wall_s = 0;        ///< from the submit to the state leaving queued/running
  nlohmann::json results;   ///< GET /v1/jobs/{id}/results
};

/// Throws std::runtime_error when the submit is refused or the job does not succeed.
finished_job run_job(const daemon_process& d, http_client& http, const std::string& kind, const nlohmann::json& spec);

}  // namespace jetperf::test
