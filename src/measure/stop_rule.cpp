#include <jetperf/measure/stop_rule.hpp>

namespace jetperf::measure {

const char* to_string(stop_reason r) {
  switch (r) {
    case stop_reason::running: return "";
    case stop_reason::converged: return "converged";
    case stop_reason::max_time: return "max_time";
    case stop_reason::fixed_duration: return "fixed_duration";
    case stop_reason::cancelled: return "cancelled";
    case stop_reason::projected_max_time: return "projected_max_time";
    case stop_reason::sensor_clock_lost: return "sensor_clock_lost";
    case stop_reason::no_power: return "no_power";
    case stop_reason::span_limit: return "span_limit";
    case stop_reason::program_exit: return "exit";
    case stop_reason::timeout: return "timeout";
  }
  return "";
}

stop_decision stop_rule::evaluate(double elapsed_s, std::size_t iterations, double time_rse,
                                  std::optional<double> power_rse) const {
  stop_decision d;
  if (c_.fixed_duration_s) {
    if (elapsed_s >= *c_.fixed_duration_s && iterations > 0) {
      d.stop = true;
      d.reason = stop_reason::fixed_duration;
    }
    return d;
  }
  if (elapsed_s < c_.min_time_s) d.unmet.push_back("min_time");
  if (iterations < c_.min_samples) d.unmet.push_back("min_samples");
  if (c_.target_rse_time && !(time_rse <= *c_.target_rse_time)) d.unmet.push_back("time_rse");
  if (power_rse && !(*power_rse <= c_.target_rse_power)) d.unmet.push_back("power_rse");
  if (d.unmet.empty()) {
    d.stop = true;
    d.reason = stop_reason::converged;
  } else if (elapsed_s >= c_.max_time_s && iterations > 0) {
    d.stop = true;
    d.reason = stop_reason::max_time;
  }
  return d;
}

}  // namespace jetperf::measure
