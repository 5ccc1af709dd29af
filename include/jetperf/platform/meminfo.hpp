#pragma once
// /proc/meminfo's "Key:   N kB" lines, read in one place and through sysfs_root: the board's total
// memory (its offer), this host's available memory (the CPU points' limit) and the RAM and swap
// in use a multi-DNN mapping records.
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

/// The value of `key` ("MemTotal", "MemAvailable") in a /proc/meminfo text, in bytes; nullopt
/// when the text has no such line.
std::optional<std::int64_t> meminfo_bytes(const std::string& text, const std::string& key);

/// The counters of one /proc/meminfo, in bytes; each nullopt when the file or its line is missing.
struct memory_info {
  std::optional<std::int64_t> total_bytes;      ///< MemTotal
  std::optional<std::int64_t> available_bytes;  ///< MemAvailable
  std::optional<std::int64_t> swap_total_bytes; ///< SwapTotal
  std::optional<std::int64_t> swap_free_bytes;  ///< SwapFree
};

/// /proc/meminfo under `root` (a board's own at "/", a fixture tree in tests).
memory_info read_memory_info(const sysfs_root& root);

/// This host's /proc/meminfo, whatever board the daemon serves: CPU points and a simulated
/// board's networks run here, so their memory is this machine's.
memory_info host_memory_info();

}  // namespace jetperf::platform
