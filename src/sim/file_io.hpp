#pragma once
// Small host-file helpers of the simulator (private to src/sim): reads that tolerate a missing
// file, and writes that replace a file atomically (temp + rename), so that a reader never sees
// a half-written sysfs value while the rail simulator updates it.
#include <optional>
#include <string>

namespace jetperf::sim::detail {

std::optional<std::string> read_text(const std::string& host_path);
/// Integer at the start of the file (leading spaces skipped), nullopt when missing or not a number.
std::optional<long long> read_ll(const std::string& host_path);
/// Creates parent directories, writes into "<path>.tmp.<tid>" and renames it over `host_path`.
/// Throws platform_error naming the path on failure.
void write_atomic(const std::string& host_path, const std::string& text);
/// Replaces `link` by a relative symlink to `target` (both host paths); parents are created.
void make_symlink(const std::string& target, const std::string& link);

}  // namespace jetperf::sim::detail
