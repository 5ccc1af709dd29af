#pragma once
// Where a trace's clock sits on the daemon's CLOCK_MONOTONIC timeline: daemon_t = trace_t +
// offset_ns, with an uncertainty and the method that found it. Methods, in order of preference:
//
// - explicit: the offset the user gives (the client's --offset-ns) is taken as is;
// - markers: events of the trace named like the phases the daemon saw (the program wrapped
//   `jetperf_markers.phase("train")` in `record_function("train")`), matched per name in order.
//   Every begin and every end of a matched pair gives a difference daemon_t - trace_t; the offset
//   is their median and the uncertainty max(marker latency, 1.4826 x their median absolute
//   deviation) (the spread of one difference, not of the median: conservative);
// - base_time: the trace is stamped in CLOCK_REALTIME, either relative to Kineto's
//   "baseTimeNanoseconds" (Kineto since 2023 writes ts as microseconds after a base rounded down
//   to three months of the epoch) or as absolute epoch microseconds (older Kineto, no base; taken
//   so when every event lies after 2001). The daemon's realtime - monotonic difference, read at
//   the job's start and end, maps it; the uncertainty is how far that difference moved during the
//   job (NTP slewing) plus the reading's own width and the trace's 1 us rounding.
//
// torch's legacy (pre-Kineto) profiler writes a bare array whose ts count from the profile's own
// start, on no clock the daemon knows: only markers or an explicit offset align it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

/// A phase the daemon saw (its begin and end markers' receipt times, CLOCK_MONOTONIC ns).
struct reference_phase {
  std::string name;
  std::int64_t t_start_ns = 0;
  std::int64_t t_end_ns = 0;
};

/// The job's CLOCK_REALTIME - CLOCK_MONOTONIC, read at its start and end.
struct clock_reference {
  std::int64_t realtime_minus_monotonic_ns = 0;  ///< at the start
  std::int64_t drift_ns = 0;                      ///< end minus start
  std::int64_t read_ns = 0;                       ///< the wider reading's width
};

struct alignment_input {
  std::vector<reference_phase> phases;      ///< closed phases of the job, any order
  std::optional<clock_reference> clocks;    ///< absent: base_time cannot apply
  std::optional<std::int64_t> offset_ns;    ///< given by the user: overrides both methods
  /// The least uncertainty of a marker (a datagram from the program to the daemon, stamped on
  /// receipt): 100 us.
  std::int64_t marker_latency_ns = 100'000;
};

enum class alignment_method { explicit_offset, markers, base_time };

struct alignment {
  alignment_method method = alignment_method::explicit_offset;
  std::int64_t offset_ns = 0;       ///< daemon_t = trace_t + offset_ns
  std::int64_t uncertainty_ns = 0;
  std::size_t matched = 0;          ///< markers: pairs of (trace event, daemon phase) matched
  std::size_t trace_events = 0;     ///< markers: trace events named like a phase
  std::size_t phases = 0;           ///< markers: the job's phases
  std::string detail;               ///< how the trace's times were read
};

/// "explicit", "markers", "base_time".
const char* to_string(alignment_method m);

/// The offset by the first method that applies; validation_error (field "offset_ns", code
/// "no_alignment") naming what was looked for when none does.
alignment align_trace(const trace& t, const alignment_input& in);

}  // namespace jetperf::traces
