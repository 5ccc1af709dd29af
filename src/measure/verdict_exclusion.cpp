#include <jetperf/measure/verdict_exclusion.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::measure {

namespace {

// The flags that keep a point out of every verdict, in the order a point is said to have one.
const char* const k_verdict_exclusions[] = {"contended", "rse_unmet"};

}  // namespace

std::string verdict_exclusion(const row& metrics) {
  const auto flags = metrics.get(cols::flags).value_or(std::vector<std::string>{});
  for (const char* flag : k_verdict_exclusions)
    for (const auto& f : flags)
      if (f == flag) return flag;
  return {};
}

}  // namespace jetperf::measure
