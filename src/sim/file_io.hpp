#pragma once
// Small host-file helpers of the simulator (private to src/sim): reads that tolerate a missing
// file; atomic replacement (temp + rename) for building the tree; and in-place updates for the
// values the "kernel" keeps changing, because readers (the daemon's sensors) keep their file
// open and pread() it, exactly as they do on a board: a renamed-over file would stay stale.
#include <optional>
#include <string>

namespace jetperf::sim::detail {

std::optional<std::string> read_text(const std::string& host_path);
/// Integer at the start of the file (leading spaces skipped), nullopt when missing or not a number.
std::optional<long long> read_ll(const std::string& host_path);
/// Creates parent directories, writes into "<path>.tmp.<tid>" and renames it over `host_path`.
/// Throws platform_error naming the path on failure.
void write_atomic(const std::string& host_path, const std::string& text);
/// Overwrites the file's content in place (same inode): pwrite at offset 0, then truncate to
/// the new length. Creates the file when missing. Throws platform_error naming the path.
void write_in_place(const std::string& host_path, const std::string& text);
/// Replaces `link` by a relative symlink to `target` (both host paths); parents are created.
void make_symlink(const std::string& target, const std::string& link);

}  // namespace jetperf::sim::detail
