#include <jetperf/traces/trace_analysis.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/kernel_links.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/record_function_labels.hpp>

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

// The ops of seed_operators' list that start inside an iteration, per iteration (in the list's
// order), and all of them together. Iterations are outermost and in start order; on several
// threads they may overlap, and an op then goes to the last one that began before it.
struct ops_by_iteration {
  std::vector<std::vector<std::uint32_t>> each;
  std::vector<std::uint32_t> all;
};

ops_by_iteration assign_ops(const trace& t, const op_tree& tree, const std::vector<std::uint32_t>& ops,
                            const std::vector<iteration>& iterations) {
  ops_by_iteration out;
  out.each.resize(iterations.size());
  std::vector<std::int64_t> starts;
  for (const auto& it : iterations) starts.push_back(t.events[it.event].ts_ns);
  for (std::uint32_t op : ops) {
    const std::int64_t ts = t.events[tree.nodes[op].event].ts_ns;
    const auto after = std::upper_bound(starts.begin(), starts.end(), ts);
    if (after == starts.begin()) continue;
    const auto k = static_cast<std::size_t>(after - starts.begin() - 1);
    if (ts >= t.events[iterations[k].event].end_ns()) continue;
    out.each[k].push_back(op);
    out.all.push_back(op);
  }
  return out;
}

sample_stats pooled_by_name(const std::map<std::string, sample_stats>& m) {
  std::vector<sample_stats> parts;
  for (const auto& kv : m) parts.push_back(kv.second);
  return pooled(parts);
}

// Iterations, their host runtime and QPS, and the host overheads over them (or over every op
// when there are none).
void iterations_and_overheads(const trace& t, const op_tree& tree, const analysis_options& options, trace_breakdown& b) {
  auto found = find_iterations(t, tree, {options.iteration_op, options.iteration_label});
  b.iterations = std::move(found.iterations);
  b.iteration_source = std::move(found.source);
  const std::vector<std::uint32_t> ops = seed_operators(t, tree, options.model);
  if (b.iterations.empty()) {
    b.overheads = compute_host_overheads(t, tree, options.model, ops);
    return;
  }
  const ops_by_iteration split = assign_ops(t, tree, ops, b.iterations);
  b.overheads = compute_host_overheads(t, tree, options.model, split.all);
  b.overheads_in_iterations = true;
  double first = b.iterations.front().start_us, last = first;
  for (std::size_t k = 0; k < b.iterations.size(); ++k) {
    iteration& it = b.iterations[k];
    const host_overheads h = compute_host_overheads(t, tree, options.model, split.each[k]);
    it.ops = h.ops;
    it.t1 = h.t1;
    it.t2 = pooled_by_name(h.t2);
    it.t3 = pooled_by_name(h.t3);
    it.t4 = pooled_by_name(h.t4);
    it.t5 = pooled_by_name(h.t5);
    if (b.batch_size && it.duration_us > 0) it.qps = 1e6 / it.duration_us * static_cast<double>(*b.batch_size);
    first = std::min(first, it.start_us);
    last = std::max(last, it.start_us + it.duration_us);
  }
  // The seed's host runtime: from the first iteration's start to the last one's end.
  b.host_runtime_us = last - first;
  if (b.batch_size && b.host_runtime_us > 0)
    b.qps = 1e6 / b.host_runtime_us * static_cast<double>(b.iterations.size()) * static_cast<double>(*b.batch_size);
}

// The analysis of a trace whose labels are marked (Kineto's categories, or mark_legacy_labels).
trace_breakdown analyze_marked(const trace& t, const analysis_options& options) {
  if (options.batch_size && *options.batch_size <= 0)
    throw validation_error("batch_size", "batch_size must be positive (got " + std::to_string(*options.batch_size) + ")");

  const op_tree tree = build_op_tree(t);
  const kernel_links links = link_kernels(t);

  trace_breakdown b;
  b.summary = summarize_trace(t, tree, links);
  b.ops = compute_op_totals(t, tree, links);
  b.kernels = compute_kernel_totals(t);
  b.model = options.model;
  b.batch_size = options.batch_size;
  iterations_and_overheads(t, tree, options, b);
  return b;
}

}  // namespace

trace_breakdown analyze_trace(const trace& t, const analysis_options& options) {
  if (t.categorized) return analyze_marked(t, options);
  trace marked = t;
  mark_legacy_labels(marked, options.model.module_markers);
  return analyze_marked(marked, options);
}

trace_breakdown analyze_trace(trace&& t, const analysis_options& options) {
  mark_legacy_labels(t, options.model.module_markers);
  return analyze_marked(t, options);
}

}  // namespace jetperf::traces
