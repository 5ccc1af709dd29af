#pragma once
// How a job's points ended, counted: what the job's final state and its summary's "points" say,
// so that a job with a failed or skipped point, or one that ran without its main metrics
// (no_power, unresolvable, incomplete: jobs/point_outcome.hpp) or with a figure past a physical
// bound (implausible), never reads as a success.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/jobs/point_row.hpp>

namespace jetperf::jobs {

struct point_tally {
  std::int64_t ok = 0, skipped = 0, failed = 0;
  /// Points that ran without their main metrics, or with a figure past a physical bound, by
  /// status: no_power, unresolvable, incomplete, implausible.
  std::map<std::string, std::int64_t> lacking;
  /// The implausible points' broken bounds (measure/physical_bounds.hpp) -> points.
  std::map<std::string, std::int64_t> bounds;
  std::map<std::string, std::int64_t> skip_reasons;  ///< reason -> points
  std::map<std::string, std::int64_t> fail_reasons;  ///< error -> points
  std::map<std::string, std::int64_t> flags;         ///< measured points' flags -> points

  /// {"ok","skipped","failed","skip_reasons":{..},"fail_reasons":{..},"flags":{..},"no_power",
  ///  "unresolvable","incomplete","implausible","implausible_bounds":{..}}
  record to_record() const;
  /// What a reader must know before comparing these points, one sentence each (e.g. that the
  /// simulated clock did not change speed, so comparisons across clocks cover power only).
  std::vector<std::string> caveats() const;
  /// "" when every point is ok; otherwise why the job is partial (some ok) or failed (none), with
  /// the count of each state: "2 of 6 points lack their main metrics or did not run: 1 failed, 1
  /// no_power (most often failed: ...)".
  std::string shortfall() const;
};

point_tally tally_points(const std::vector<point_row>& points);

}  // namespace jetperf::jobs
