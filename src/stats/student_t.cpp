#include <jetperf/stats/student_t.hpp>

namespace jetperf::stats {

double t95(std::size_t dof) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof == 0) return 0;
  if (dof <= 30) return table[dof - 1];
  // z + g1/v + g2/v^2 + g3/v^3 (Abramowitz and Stegun 26.7.5) with z the normal 0.975 quantile.
  constexpr double z = 1.959963984540054;
  const double z2 = z * z, v = static_cast<double>(dof);
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v);
}

}  // namespace jetperf::stats
