#include <jetperf/jobs/point_rows.hpp>

#include <jetperf/store/job_cells.hpp>

namespace jetperf::jobs {

std::vector<point_row> point_rows(const std::vector<store::point_record>& points) {
  std::vector<point_row> rows;
  rows.reserve(points.size());
  for (const auto& p : points) rows.push_back({p.index, p.status, store::params_of(p), store::metrics_of(p)});
  return rows;
}

}  // namespace jetperf::jobs
