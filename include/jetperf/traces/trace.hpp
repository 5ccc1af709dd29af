#pragma once
// A parsed trace: the complete events in file order, with the name and thread tables they index.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/traces/trace_event.hpp>

namespace jetperf::traces {

/// A (pid, tid) pair as the file wrote it; numbers are kept as their decimal text.
struct thread_key {
  std::string pid;
  std::string tid;
};

struct trace {
  std::vector<trace_event> events;  ///< every "ph":"X" event, in file order
  std::vector<std::string> names;   ///< event names, each once
  std::vector<thread_key> threads;  ///< (pid, tid) pairs, each once
  /// The top-level "baseTimeNanoseconds" (Kineto: ts are microseconds after it), 0 when absent.
  std::int64_t base_time_ns = 0;
  /// True for the {"traceEvents": [...]} form, false for a bare array of events.
  bool has_envelope = false;
  /// True when some "X" event has a "cat" (Kineto); torch's legacy profiler writes none, and
  /// its record_function ranges then read as ops until mark_legacy_labels names them.
  bool categorized = false;
  /// Events of other phases (flows "s"/"f", instants, metadata, counters): counted, not kept.
  std::size_t other_phase_events = 0;

  const std::string& name_of(const trace_event& e) const { return names[e.name]; }
};

}  // namespace jetperf::traces
