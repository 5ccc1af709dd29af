#include <jetperf/traces/trace_analysis.hpp>

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/kernel_links.hpp>
#include <jetperf/traces/op_tree.hpp>

namespace jetperf::traces {

namespace {

// The time the device was busy at all: overlapping kernels (several streams) count once.
double device_busy_us(const trace& t) {
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  for (const auto& e : t.events)
    if (is_device(e.category)) spans.emplace_back(e.ts_ns, e.end_ns());
  std::sort(spans.begin(), spans.end());
  std::int64_t busy = 0;
  std::int64_t start = 0, end = std::numeric_limits<std::int64_t>::min();
  for (const auto& [s, e] : spans) {
    if (s > end) {
      if (end > start) busy += end - start;
      start = s;
      end = e;
    } else {
      end = std::max(end, e);
    }
  }
  if (!spans.empty() && end > start) busy += end - start;
  return static_cast<double>(busy) / 1000.0;
}

trace_summary summarize_trace(const trace& t, const op_tree& tree, const kernel_links& links) {
  trace_summary s;
  s.events = t.events.size();
  s.host_events = tree.nodes.size();
  s.device_events = links.device_events;
  s.unmatched_device_events = links.unmatched;
  s.partial_overlaps = tree.partial_overlaps;
  std::set<std::uint32_t> threads;
  std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
  for (const auto& e : t.events) {
    threads.insert(e.thread);
    first = std::min(first, e.ts_ns);
    last = std::max(last, e.end_ns());
  }
  s.threads = threads.size();
  if (!t.events.empty()) s.span_us = static_cast<double>(last - first) / 1000.0;
  s.device_busy_us = device_busy_us(t);
  return s;
}

}  // namespace

trace_breakdown analyze_trace(const trace& t, const analysis_options& options) {
  if (options.batch_size && *options.batch_size <= 0)
    throw validation_error("batch_size", "batch_size must be positive (got " + std::to_string(*options.batch_size) + ")");

  const op_tree tree = build_op_tree(t);
  const kernel_links links = link_kernels(t);

  trace_breakdown b;
  b.summary = summarize_trace(t, tree, links);
  b.ops = compute_op_totals(t, tree, links);
  b.kernels = compute_kernel_totals(t);
  b.model = options.model;
  b.overheads = compute_host_overheads(t, tree, options.model);
  b.iterations = find_iterations(t, tree, options.iteration_op);
  b.iteration_source = options.iteration_op.empty() ? "ProfilerStep" : options.iteration_op;
  b.batch_size = options.batch_size;
  if (!b.iterations.empty()) {
    double first = b.iterations.front().start_us, last = first;
    for (const auto& it : b.iterations) {
      first = std::min(first, it.start_us);
      last = std::max(last, it.start_us + it.duration_us);
    }
    // The seed's host runtime: from the first iteration's start to the last one's end.
    b.host_runtime_us = last - first;
    if (b.batch_size && b.host_runtime_us > 0)
      b.qps = 1e6 / b.host_runtime_us * static_cast<double>(b.iterations.size()) * static_cast<double>(*b.batch_size);
  }
  return b;
}

}  // namespace jetperf::traces
