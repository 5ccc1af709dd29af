#pragma once
// Chrome trace-event JSON (torch.profiler's export_chrome_trace, Kineto or the legacy profiler)
// -> trace. A SAX pass over the text: no JSON tree is built, so a 100 MB file needs about its own
// size in memory. Every problem is a validation_error whose field says where it is
// ("traceEvents[12].dur") and whose message says what is wrong; nothing in a file can crash it.
#include <cstddef>
#include <string>
#include <string_view>

#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

/// Bounds on what a reader accepts; a file past one is refused naming the bound.
struct trace_limits {
  std::size_t max_bytes = std::size_t{2} << 30;  ///< 2 GiB: a day of Kineto tracing is far below
  std::size_t max_events = 50'000'000;           ///< complete events kept
};

/// Parses trace text: {"traceEvents": [...], "baseTimeNanoseconds": N, ...} or a bare array of
/// events. Keeps the "X" events; requires name, ts, dur (>= 0), pid and tid on each; reads
/// cat and args "External id", "correlation" and "stream". Throws validation_error.
trace parse_trace(std::string_view text, const trace_limits& limits = {});

/// Reads and parses a file; validation_error (field "file") when it cannot be read or is too big.
trace read_trace_file(const std::string& path, const trace_limits& limits = {});

}  // namespace jetperf::traces
