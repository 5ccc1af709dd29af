#pragma once
// How far a job's estimate is from the truth, as a user watching it sees: the ETA the job view
// gives once its first point has ended, against the time the job then really took to end, and
// the basis the view named for it. Shared by the estimate sim test and bench_estimates_under_load.
#include <chrono>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include <support/http_client.hpp>

namespace jetperf::test {

struct eta_trial {
  std::int64_t id = 0;
  std::string state;            ///< the job's final state
  double estimate_s = 0;        ///< the whole job's estimate at submission
  nlohmann::json submit_basis;  ///< progress.eta_basis at submission (null when the view has none)
  std::int64_t done_seen = 0;   ///< points done when the ETA below was read (1 unless a point was quicker than a poll)
  double first_eta_s = -1;      ///< progress.eta_s then (-1: the job ended before it was seen)
  nlohmann::json first_basis;   ///< progress.eta_basis then
  double truth_s = 0;           ///< seconds from that reading to the job's end
  double total_s = 0;           ///< seconds from the submission to the job's end

  /// first_eta_s over truth_s (0 when either is missing).
  double ratio() const { return first_eta_s >= 0 && truth_s > 0 ? first_eta_s / truth_s : 0.0; }
  /// Within a factor of `factor` of the truth, either way.
  bool within(double factor) const { return ratio() > 0 && ratio() <= factor && ratio() >= 1 / factor; }
  nlohmann::json to_json() const;
};

/// Submits `kind` with `spec` and polls its view every 20 ms until it ends (at most `timeout`).
/// Throws std::runtime_error when the submission is refused or the job does not end in time.
eta_trial run_eta_trial(http_client& http, const std::string& token, const std::string& kind,
                        const nlohmann::json& spec, std::chrono::seconds timeout = std::chrono::seconds(120));

}  // namespace jetperf::test
