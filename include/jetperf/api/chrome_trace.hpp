#pragma once
// A job's timeline and telemetry as Chrome trace-event JSON (what Perfetto and chrome://tracing
// open): one named thread per timeline track with its spans as complete events (ph X) and its
// instants as instant events (ph i), one counter track (ph C) per telemetry channel, and the
// job's provenance as metadata. Times are CLOCK_MONOTONIC microseconds, as the daemon's clock
// (GET /v1/time) reads them, so a trace the program wrote can be aligned to it. This is the
// document held whole; the trace route streams the same text from the store
// (chrome_trace_stream), both through chrome_trace_writer.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/timeline_store.hpp>

namespace jetperf::api {

struct trace_counter {
  std::string name;  ///< the channel, e.g. "rail.VDD_CPU_CV"
  std::string unit;
  std::vector<std::pair<std::int64_t, double>> points;  ///< (t_ns, value)
};

struct trace_document {
  std::string title;  ///< the process's name in the viewer
  std::vector<store::timeline_span> spans;
  std::vector<trace_counter> counters;
  nlohmann::json metadata = nlohmann::json::object();  ///< job, kind, provenance, ...
};

/// The document as Chrome trace-event JSON text.
std::string chrome_trace_json(const trace_document& doc);

}  // namespace jetperf::api
