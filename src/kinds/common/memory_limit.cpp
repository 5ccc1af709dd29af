#include <jetperf/kinds/common/memory_limit.hpp>

#include <algorithm>
#include <limits>

#include <unistd.h>

#include <jetperf/platform/meminfo.hpp>

namespace jetperf::kinds::common {

memory_limit device_memory_limit(const platform::board_offer& offered, const std::string& device) {
  const bool cuda = device == "cuda";
  if (cuda && offered.gpu_memory_bytes > 0) return {offered.gpu_memory_bytes, "gpu_memory_bytes"};
  const memory_limit board =
      offered.memory_bytes > 0 ? memory_limit{offered.memory_bytes, "memory_bytes"} : memory_limit{};
  // A board that does not report its memory (a simulated one) runs CPU points on this host; its
  // GPU, if any, is not this host's to measure, so cuda points stay unchecked.
  if (cuda) return board;
  // CPU points run in the daemon, on this host (on a board, the board itself): what it has free
  // now bounds them, not all of its memory (a point that does not fit is refused here rather
  // than have the kernel's OOM killer choose among the daemon and the board's other work).
  // Less a headroom for the daemon and the board's own work: a point that takes every free byte
  // still has the OOM killer choose.
  const auto available = host_available_memory_bytes() - cpu_headroom_bytes();
  if (available > 0 && (board.bytes == 0 || available < board.bytes))
    return {available, "this host's available memory (MemAvailable, less its headroom)"};
  if (board.bytes > 0) return board;
  return {host_memory_bytes(), "this host's memory"};
}

std::int64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  // Saturated: no host has 2^63 bytes, but a wrong sysconf answer must not wrap negative.
  if (pages > std::numeric_limits<std::int64_t>::max() / page) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(pages) * page;
}

std::int64_t cpu_headroom_bytes() { return std::max<std::int64_t>(std::int64_t{512} << 20, host_memory_bytes() / 10); }

std::int64_t host_available_memory_bytes() {
  const auto bytes = platform::host_memory_info().available_bytes;
  return bytes && *bytes > 0 ? *bytes : 0;
}

}  // namespace jetperf::kinds::common
