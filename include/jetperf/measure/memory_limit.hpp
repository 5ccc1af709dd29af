#pragma once
// The memory one point of a job may use on a device, for the kinds' "does it fit" checks: what
// the board reports, else (a simulated board, which reports none) this host's memory for CPU
// points, since those run here.
#include <cstdint>
#include <string>

#include <jetperf/platform/board_setting.hpp>

namespace jetperf::measure {

struct memory_limit {
  std::int64_t bytes = 0;  ///< 0 when nothing is known: no check is possible
  std::string source;      ///< what the limit is, for messages: "gpu_memory_bytes", "memory_bytes", "this host's memory"
};

/// The limit for points on `device` ("cuda" or "cpu"): gpu_memory_bytes (cuda), else the board's
/// memory_bytes (a Jetson's GPU shares it), else for cpu this host's physical memory.
memory_limit device_memory_limit(const platform::board_offer& offered, const std::string& device);

/// This host's physical memory in bytes, 0 when the system does not say.
std::int64_t host_memory_bytes();

}  // namespace jetperf::measure
