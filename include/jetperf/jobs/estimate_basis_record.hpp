#pragma once
// An estimate's basis as the API shows it (progress.eta_basis, a progress event's eta_basis, a dry
// run's estimate_basis): {"source": "pace", "points": 3}, {"source": "cost_model", "jobs": 12}
// or {"source": "static"}. One shape for the runner's events and the job view.
#include <optional>

#include <jetperf/common/cell.hpp>
#include <jetperf/store/estimate_basis.hpp>

namespace jetperf::jobs {

/// nullopt for a basis not known (a job stored before bases were kept).
std::optional<record> estimate_basis_record(const store::estimate_basis& basis);

}  // namespace jetperf::jobs
