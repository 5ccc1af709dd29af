#pragma once
// Phase markers a command job's program sends (deploy/markers/): one line per marker,
//   begin NAME | end NAME | mark NAME [key=value ...]
// with an optional client timestamp `ts=<CLOCK_MONOTONIC ns>` among the key=values. The daemon
// stamps each on receipt; the client's own stamp is kept beside it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace jetperf::kinds {

/// Longest accepted marker line, name, key and value (bytes): a program cannot grow the daemon's
/// memory through its markers.
constexpr std::size_t k_max_marker_line = 1024;
constexpr std::size_t k_max_marker_name = 128;
constexpr std::size_t k_max_marker_attrs = 16;
/// Bytes of marker names and attributes one run keeps (besides k_max_markers_per_run): 100 000
/// markers of 16 attributes each took 300 MB of the daemon's memory when attributes were a map.
constexpr std::size_t k_max_marker_bytes_per_run = 16u << 20;

struct marker {
  enum class type { begin, end, mark };
  type what = type::mark;
  std::string name;
  std::int64_t t_ns = 0;                   ///< CLOCK_MONOTONIC on receipt
  std::optional<std::int64_t> client_t_ns; ///< the program's own stamp (ts=...)
  /// "key=value key=value": each key once (the last given), in key order; kept as text, the
  /// form that costs least while a run's markers wait for its end.
  std::string attrs;

  /// The attributes as (key, value), in key order.
  std::map<std::string, std::string> attributes() const;
};

const char* to_string(marker::type t);

/// One line (without its newline) as a marker stamped `t_ns`; on a malformed line nullopt and
/// `why` says what is wrong. Names and keys are [A-Za-z0-9_.:/-]; values have no blanks.
std::optional<marker> parse_marker_line(const std::string& line, std::int64_t t_ns, std::string* why);

}  // namespace jetperf::kinds
