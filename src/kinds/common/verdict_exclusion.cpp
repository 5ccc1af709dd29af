#include <jetperf/kinds/common/verdict_exclusion.hpp>

#include <jetperf/measure/point_columns.hpp>
#include <jetperf/measure/row_bounds.hpp>

namespace jetperf::kinds::common {

namespace {

// The flags that keep a point out of every verdict, in the order a point is said to have one.
const char* const k_verdict_exclusions[] = {"contended", "rse_unmet"};
constexpr const char* k_implausible = "implausible";

}  // namespace

std::string verdict_exclusion(const std::string& status, const row& metrics) {
  if (status == k_implausible || measure::is_implausible(metrics)) return k_implausible;
  const auto flags = metrics.get(measure::cols::flags).value_or(std::vector<std::string>{});
  for (const char* flag : k_verdict_exclusions)
    for (const auto& f : flags)
      if (f == flag) return flag;
  return {};
}

bool verdict_sees(const std::string& status) { return status == "ok" || status == k_implausible; }

}  // namespace jetperf::kinds::common
