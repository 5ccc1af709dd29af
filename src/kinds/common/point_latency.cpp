#include <jetperf/kinds/common/point_latency.hpp>

#include <cmath>
#include <optional>

namespace jetperf::kinds::common {

void put_latency(row& mt, const latency_keys& keys, const stats::latency_stats& latency) {
  mt.set(keys.count, latency.count);
  mt.set(keys.mean_s, latency.mean_s);
  mt.set(keys.median_s, latency.median_s);
  mt.set(keys.min_s, latency.min_s);
  mt.set(keys.max_s, latency.max_s);
  mt.set(keys.std_s, latency.std_s);
  mt.set(keys.rse, std::isfinite(latency.rse) ? std::optional<double>(latency.rse) : std::nullopt);
}

}  // namespace jetperf::kinds::common
