#include <jetperf/jobs/estimate_basis_record.hpp>

namespace jetperf::jobs {

std::optional<record> estimate_basis_record(const store::estimate_basis& basis) {
  if (basis.source == "pace") return record{{"source", "pace"}, {"points", basis.count}};
  if (basis.source == "cost_model") return record{{"source", "cost_model"}, {"jobs", basis.count}};
  if (basis.source == "static") return record{{"source", "static"}};
  return std::nullopt;
}

}  // namespace jetperf::jobs
