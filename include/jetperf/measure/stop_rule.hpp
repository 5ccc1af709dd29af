#pragma once
// When a measurement window may end (nvbench's practice): after min_time and min_samples, once
// the RSE of the mean latency (when it is a criterion) and of the mean power are under their targets; or at max_time, which
// reports the criteria still unmet. A fixed duration replaces the adaptive rule (as the seeds did).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace jetperf::measure {

struct stop_criteria {
  double min_time_s = 0.5;
  double max_time_s = 10;
  std::size_t min_samples = 10;
  /// nullopt: the latency's RSE is not a criterion (it never appears in `unmet`).
  std::optional<double> target_rse_time = 0.01;
  double target_rse_power = 0.01;
  std::optional<double> fixed_duration_s;  ///< when set: stop exactly after it, ignoring the rest
  /// Stop before max_time_s when the latency's RSE, projected from its trend, cannot reach its
  /// target (measurement_loop; projected_max_time). GEMM sweeps opt in; a layer's isolated window
  /// does not: its power, compared with the layer in context, wants the whole window (stopped
  /// early, the in_context comparison test failed 2-3 times in 7 against 0 in 6).
  bool stop_when_out_of_reach = false;
};

/// Why a measurement window ended, one list for every protocol; its text (to_string) is the
/// rows' stop_reason column.
enum class stop_reason {
  running,             ///< not ended ("")
  converged,           ///< every criterion met
  max_time,            ///< max_time_s reached with criteria unmet
  fixed_duration,      ///< the fixed window ran its length
  cancelled,           ///< the job was cancelled or the daemon shut down
  /// in_context: the layers short of the target would still be at max_time_s; adaptive: the
  /// latency's RSE, projected from its trend, would still miss target_rse at max_time_s
  projected_max_time,
  sensor_clock_lost,   ///< in_context: the sensor's changes stopped following its fitted clock
  no_power,            ///< in_context: no reading can ever be placed (no sensor, or read too slowly)
  span_limit,          ///< in_context: the layer spans it keeps reached their bound
  program_exit,        ///< command: the program exited ("exit")
  timeout,             ///< command: the program ran past timeout_s and was killed
};
const char* to_string(stop_reason r);

struct stop_decision {
  bool stop = false;
  stop_reason reason = stop_reason::running;
  /// Criteria not met at the time of the decision: "min_time", "min_samples", "time_rse", "power_rse".
  std::vector<std::string> unmet;
};

class stop_rule {
 public:
  explicit stop_rule(stop_criteria c) : c_(std::move(c)) {}
  const stop_criteria& criteria() const { return c_; }

  /// `power_rse` is nullopt when there is no telemetry (the power criterion then does not apply).
  stop_decision evaluate(double elapsed_s, std::size_t iterations, double time_rse,
                         std::optional<double> power_rse) const;

 private:
  stop_criteria c_;
};

}  // namespace jetperf::measure
