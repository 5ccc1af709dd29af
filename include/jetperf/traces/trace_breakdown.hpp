#pragma once
// The result of analysing one trace: what every writer (table, CSV, JSON) prints.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/traces/host_overheads.hpp>
#include <jetperf/traces/iterations.hpp>
#include <jetperf/traces/op_totals.hpp>
#include <jetperf/traces/overhead_model.hpp>

namespace jetperf::traces {

struct trace_summary {
  std::size_t events = 0;         ///< complete events read
  std::size_t host_events = 0;    ///< in the op tree
  std::size_t device_events = 0;  ///< kernels, copies, sets
  std::size_t threads = 0;        ///< (pid, tid) pairs with events
  std::size_t unmatched_device_events = 0;
  std::size_t partial_overlaps = 0;
  double span_us = 0;             ///< first start to last end, every event
  double device_busy_us = 0;      ///< union of the device events' intervals
};

struct trace_breakdown {
  trace_summary summary;
  std::vector<op_total> ops;
  std::vector<kernel_total> kernels;
  overhead_model model;  ///< the constants the overheads were computed with
  host_overheads overheads;
  std::vector<iteration> iterations;  ///< each with its own overheads and QPS
  std::string iteration_source;     ///< "ProfilerStep", "## iteration * ##", or the op or pattern given
  bool overheads_in_iterations = false;  ///< overheads over the iterations' ops (else every op)
  double host_runtime_us = 0;       ///< first iteration start to last iteration end (0 without iterations)
  std::optional<long> batch_size;   ///< as given
  std::optional<double> qps;        ///< batch_size * iterations / host runtime, with both known
};

}  // namespace jetperf::traces
