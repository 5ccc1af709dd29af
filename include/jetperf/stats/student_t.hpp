#pragma once
// Student's t quantile for two-sided 95% intervals whose standard deviation is itself estimated
// (repeats of a job, the residuals of the in-context layer estimate).
#include <cstddef>

namespace jetperf::stats {

/// t_{0.975} with `dof` degrees of freedom (0 for none): exact to three decimals up to 30, the
/// Cornish-Fisher expansion beyond (within 1e-4 of the exact quantile, and tending to the normal
/// 1.960), so intervals narrow smoothly as the degrees of freedom grow.
double t95(std::size_t dof);

}  // namespace jetperf::stats
