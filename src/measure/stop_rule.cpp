#include <jetperf/measure/stop_rule.hpp>

namespace jetperf::measure {

stop_decision stop_rule::evaluate(double elapsed_s, std::size_t iterations, double time_rse,
                                  std::optional<double> power_rse) const {
  stop_decision d;
  if (c_.fixed_duration_s) {
    if (elapsed_s >= *c_.fixed_duration_s && iterations > 0) {
      d.stop = true;
      d.reason = "fixed_duration";
    }
    return d;
  }
  if (elapsed_s < c_.min_time_s) d.unmet.push_back("min_time");
  if (iterations < c_.min_samples) d.unmet.push_back("min_samples");
  if (c_.target_rse_time && !(time_rse <= *c_.target_rse_time)) d.unmet.push_back("time_rse");
  if (power_rse && !(*power_rse <= c_.target_rse_power)) d.unmet.push_back("power_rse");
  if (d.unmet.empty()) {
    d.stop = true;
    d.reason = "converged";
  } else if (elapsed_s >= c_.max_time_s && iterations > 0) {
    d.stop = true;
    d.reason = "max_time";
  }
  return d;
}

}  // namespace jetperf::measure
