#include <jetperf/measure/memory_limit.hpp>

#include <limits>

#include <unistd.h>

namespace jetperf::measure {

memory_limit device_memory_limit(const platform::board_offer& offered, const std::string& device) {
  const bool cuda = device == "cuda";
  if (cuda && offered.gpu_memory_bytes > 0) return {offered.gpu_memory_bytes, "gpu_memory_bytes"};
  if (offered.memory_bytes > 0) return {offered.memory_bytes, "memory_bytes"};
  // A board that does not report its memory (a simulated one) runs CPU points on this host; its
  // GPU, if any, is not this host's to measure, so cuda points stay unchecked.
  if (!cuda) return {host_memory_bytes(), "this host's memory"};
  return {};
}

std::int64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  // Saturated: no host has 2^63 bytes, but a wrong sysconf answer must not wrap negative.
  if (pages > std::numeric_limits<std::int64_t>::max() / page) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(pages) * page;
}

}  // namespace jetperf::measure
