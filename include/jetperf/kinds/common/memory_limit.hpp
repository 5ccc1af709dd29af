#pragma once
// The memory one point of a job may use on a device, for the kinds' "does it fit" checks: what
// the board reports, and for CPU points no more than this host has available now, since those
// run here (a simulated board reports none).
#include <cstdint>
#include <string>

#include <jetperf/platform/board_setting.hpp>

namespace jetperf::kinds::common {

struct memory_limit {
  std::int64_t bytes = 0;  ///< 0 when nothing is known: no check is possible
  std::string source;      ///< what the limit is, for messages: "gpu_memory_bytes", "memory_bytes", "this host's memory"
};

/// The limit for points on `device` ("cuda" or "cpu"): gpu_memory_bytes (cuda), else the board's
/// memory_bytes (a Jetson's GPU shares it); for cpu, this host's available memory (MemAvailable)
/// less cpu_headroom_bytes() where that is less (the points run here), else the board's, else
/// this host's physical memory.
memory_limit device_memory_limit(const platform::board_offer& offered, const std::string& device);

/// This host's physical memory in bytes, 0 when the system does not say.
std::int64_t host_memory_bytes();
/// This host's available memory (/proc/meminfo MemAvailable) in bytes, 0 when it does not say.
std::int64_t host_available_memory_bytes();
/// What CPU points leave of it for the daemon and the board: 512 MiB or a tenth of the host's
/// memory, whichever is more.
std::int64_t cpu_headroom_bytes();

}  // namespace jetperf::kinds::common
