#pragma once
// Writes a whole file so that readers see either nothing or all of it: a temporary file in the
// same directory, fsync, then rename over the target.
#include <string>
#include <sys/types.h>

namespace jetperf::daemon {

/// Throws std::system_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content, mode_t mode);

/// Creates `dir` (one level) with `mode` when missing; throws std::system_error naming it.
void ensure_directory(const std::string& dir, mode_t mode);

/// The directory part of a path ("." when it has none).
std::string parent_directory(const std::string& path);

}  // namespace jetperf::daemon
