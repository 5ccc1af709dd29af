#pragma once
// Chrome trace-event JSON (torch.profiler's export_chrome_trace, Kineto or the legacy profiler)
// -> trace. A SAX pass: no JSON tree is built, and a file is read through a buffer rather than
// held, so memory goes to the events kept (48 bytes each, their vector sized once: a 100 MB
// Kineto trace's 344 000 events take 17 MB). Every problem is a validation_error whose field
// says where it is ("traceEvents[12].dur") and whose message says what is wrong; nothing in a
// file can crash it.
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

/// Reads and parses a file as it reads it (the text is never held whole); validation_error
/// (field "file") when it cannot be read or is too big.
trace read_trace_file(const std::string& path, const trace_limits& limits = {});

}  // namespace jetperf::traces
