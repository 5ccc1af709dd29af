#pragma once
// /proc/meminfo's "Key:   N kB" lines, read in one place: the board's total memory (its offer)
// and this host's available memory (the CPU points' limit).
#include <cstdint>
#include <optional>
#include <string>

namespace jetperf::platform {

/// The value of `key` ("MemTotal", "MemAvailable") in a /proc/meminfo text, in bytes; nullopt
/// when the text has no such line.
std::optional<std::int64_t> meminfo_bytes(const std::string& text, const std::string& key);

}  // namespace jetperf::platform
