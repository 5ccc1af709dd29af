#pragma once
// Files of the web page (the configured web root) and of Debian's libjs-* packages (the configured
// javascript dir), read for GET / and its assets. Only plain files of known types, at most
// k_static_file_max_bytes, reached through a relative path of ordinary names and resolving
// (symlinks followed) inside the root are served; anything else is not found.
#include <cstdint>
#include <string>

namespace jetperf::api {

/// The largest file served (the biggest libjs file the page loads, chart.js, is 0.6 MiB).
inline constexpr std::uint64_t k_static_file_max_bytes = std::uint64_t{8} << 20;

struct static_file {
  std::string path;          ///< the file as read (root + relative, before symlinks)
  std::string content_type;  ///< with "; charset=utf-8" for text
  std::string body;
};

/// The Content-Type of a served file name by its extension, "" for a type that is not served.
std::string static_content_type(const std::string& name);

/// Reads `relative` ("js/main.js") under `root`. Throws not_found naming the full path when the
/// name is malformed (empty, absolute, a component that is empty or starts with '.', or holds
/// anything but letters, digits, '.', '_', '-', '+', '@'), of a type not served, missing, not a
/// plain file, resolves outside the root or is larger than `max_bytes`.
static_file read_static_file(const std::string& root, const std::string& relative,
                             std::uint64_t max_bytes = k_static_file_max_bytes);

}  // namespace jetperf::api
