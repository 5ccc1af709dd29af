#pragma once
// Which parameters a job swept: those its points hold more than one value of. A comparison along
// a parameter the job held at one value (or never set) compares nothing, so it is refused naming
// the ones it did sweep.
#include <string>
#include <vector>

#include <jetperf/jobs/point_row.hpp>

namespace jetperf::jobs {

/// The params keys of `rows` with at least two distinct non-null values, in the order the points
/// first list them.
std::vector<std::string> swept_parameters(const std::vector<point_row>& rows);

}  // namespace jetperf::jobs
