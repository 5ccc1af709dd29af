#pragma once
// How a job's points ended, counted: what the job's final state and its summary's "points" say,
// so that a job with failed or only skipped points never reads as a success.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/job_store.hpp>

namespace jetperf::jobs {

struct point_tally {
  std::int64_t ok = 0, skipped = 0, failed = 0;
  std::map<std::string, std::int64_t> skip_reasons;  ///< reason -> points
  std::map<std::string, std::int64_t> fail_reasons;  ///< error -> points
  std::map<std::string, std::int64_t> flags;         ///< measured points' flags -> points

  /// {"ok","skipped","failed","skip_reasons":{..},"fail_reasons":{..},"flags":{..}}
  nlohmann::json to_json() const;
  /// What a reader must know before comparing these points, one sentence each (e.g. that the
  /// simulated clock did not change speed, so comparisons across clocks cover power only).
  std::vector<std::string> caveats() const;
  /// "" when every point was measured or skipped with at least one measured; otherwise why the
  /// job is partial: "2 of 4 points failed (first: ...)", "no point was measured: ...".
  std::string shortfall() const;
};

point_tally tally_points(const std::vector<store::point_record>& points);

}  // namespace jetperf::jobs
