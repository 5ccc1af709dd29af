#pragma once
// Contention measured, not assumed: for each measurement window, the share of the workload's
// cores' time that other processes took (platform::cpu_usage). A window over the spec's
// threshold is measured again, up to max_retries times; the last one is kept, flagged
// `contended` when it too was over, and the verdicts (gemm's most efficient, compare) leave it
// out. Two spec fields, declared here once for every kind that measures windows.
#include <cstdint>
#include <optional>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/platform/cpu_usage.hpp>

namespace jetperf::measure {

struct contention_policy {
  double threshold = 0.05;  ///< others' share of the workload's cores' time that makes a window contended
  std::int64_t max_retries = 2;

  /// Reads contention_threshold and max_retries from a spec (validation_error naming the field).
  static contention_policy parse(const record& spec);
  /// From a stored spec; a spec stored before these fields existed gets the defaults.
  static contention_policy stored(const record& normalized);
  /// Writes both fields into a normalized spec.
  void put(record& normalized) const;
};

/// contention_threshold and max_retries, as GET /v1/kinds serves them.
const std::vector<spec_field>& contention_fields();
/// A kind's declared fields with contention_fields() before its last one (tags stays last).
std::vector<spec_field> with_contention_fields(std::vector<spec_field> fields);

/// What the last window of a point met.
struct window_contention {
  double others_cpu_share = 0;  ///< of the workload's cores' time in the window, taken by others
  std::int64_t retries = 0;     ///< windows measured again because others took more than the threshold
  bool contended = false;       ///< the window kept was over the threshold too
};

/// Measures one window at a time (null usage: nothing is measured, every answer is nullopt).
class contention_probe {
 public:
  explicit contention_probe(const platform::cpu_usage* usage) : usage_(usage) {}
  /// Starts a window.
  void start();
  /// Ends it: others' share, and whether it is over `policy.threshold`. `workload_cpu_s`: CPU
  /// time the workload spent in the window outside this process (a command job's program), which
  /// is its own, not another's.
  std::optional<window_contention> stop(const contention_policy& policy, std::int64_t retries,
                                        double workload_cpu_s = 0) const;

 private:
  const platform::cpu_usage* usage_;
  std::optional<platform::cpu_usage_snapshot> started_;
};

}  // namespace jetperf::measure
