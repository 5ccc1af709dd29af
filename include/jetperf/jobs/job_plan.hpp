#pragma once
// A job's spec parsed once and expanded once, held by the runner for the whole job: the points
// it stores (as records) and the measuring of each, without parsing the spec per point.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/point_result.hpp>
#include <jetperf/measure/run_cost.hpp>

namespace jetperf::jobs {

class job_plan {
 public:
  virtual ~job_plan() = default;
  /// The points in order, as each point's params are stored.
  virtual const std::vector<record>& points() const = 0;
  /// Measures point `index`. Throws on failure of the point (the runner records it and goes on).
  virtual measure::point_result run_point(measure::point_context& ctx, std::size_t index) = 0;
  /// Seconds each point will take (workload::estimate_points_s).
  virtual std::vector<double> estimate_points_s(const measure::estimate_context& ctx) const = 0;
  /// Points this machine could only skip, counted by reason (workload::foreseen_skips).
  virtual std::map<std::string, std::size_t> foreseen_skips() const = 0;
};

}  // namespace jetperf::jobs
