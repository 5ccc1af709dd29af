#pragma once
// Stored points as the rows the kinds' views read: where the job runner and the API turn what the
// store holds into point_row (jobs/point_row.hpp). Kinds never see the store's types.
#include <vector>

#include <jetperf/jobs/point_row.hpp>
#include <jetperf/store/job_store.hpp>

namespace jetperf::jobs {

/// Finished points as the rows the kinds' views read.
std::vector<point_row> point_rows(const std::vector<store::point_record>& points);

}  // namespace jetperf::jobs
