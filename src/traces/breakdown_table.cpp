#include <jetperf/traces/breakdown_writers.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace jetperf::traces {

namespace {

std::string num(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Columns padded to their widest cell: the first `text` columns (names) left-aligned, the numbers
// right-aligned; the last column is not padded when it is text.
void print_table(std::ostream& out, std::size_t text, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      if (c > 0) out << "  ";
      if (c < text) {
        out << cells[c];
        if (c + 1 < cells.size()) out << pad;
      } else {
        out << pad << cells[c];
      }
    }
    out << '\n';
  };
  line(header);
  for (const auto& r : rows) line(r);
}

void stats_rows(std::vector<std::vector<std::string>>& rows, const char* type, const std::string& name,
                const sample_stats& s) {
  if (s.count == 0) return;
  rows.push_back({type, name.empty() ? "-" : name, std::to_string(s.count), num(s.mean, 2), num(s.std, 2), num(s.sum)});
}

// A table this long is cut: the CSV and JSON forms hold every iteration.
constexpr std::size_t k_iteration_rows_shown = 50;

// One row per iteration: its time, ops, each overhead type's total and its QPS.
void iteration_rows(const trace_breakdown& b, std::ostream& out) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < b.iterations.size() && k < k_iteration_rows_shown; ++k) {
    const iteration& it = b.iterations[k];
    rows.push_back({it.name, num(it.start_us), num(it.duration_us), std::to_string(it.ops), num(it.t1.sum),
                    num(it.t2.sum), num(it.t3.sum), num(it.t4.sum), num(it.t5.sum),
                    it.qps ? num(*it.qps, 2) : std::string("-")});
  }
  print_table(out, 1, {"iteration", "start_us", "duration_us", "ops", "t1_us", "t2_us", "t3_us", "t4_us", "t5_us", "qps"},
              rows);
  if (b.iterations.size() > k_iteration_rows_shown)
    out << "(" << b.iterations.size() - k_iteration_rows_shown << " more iterations: --format csv or json lists them)\n";
}

}  // namespace

void write_breakdown_table(const trace_breakdown& b, std::ostream& out) {
  const trace_summary& s = b.summary;
  out << "trace: " << s.events << " events (" << s.host_events << " host, " << s.device_events << " device) on "
      << s.threads << (s.threads == 1 ? " thread" : " threads") << ", span " << num(s.span_us) << " us, device busy "
      << num(s.device_busy_us) << " us\n";
  if (s.unmatched_device_events > 0)
    out << "note: " << s.unmatched_device_events << " device events have no launch with their correlation id\n";
  if (s.partial_overlaps > 0)
    out << "note: " << s.partial_overlaps << " host events overlap another without fitting inside it\n";

  out << "iterations (" << b.iteration_source << "): " << b.iterations.size();
  if (!b.iterations.empty()) {
    double sum = 0;
    for (const auto& it : b.iterations) sum += it.duration_us;
    out << ", host runtime " << num(b.host_runtime_us) << " us, mean "
        << num(sum / static_cast<double>(b.iterations.size())) << " us";
  }
  if (b.qps) out << ", batch " << *b.batch_size << ": QPS " << num(*b.qps, 2);
  out << "\n";
  if (!b.iterations.empty()) iteration_rows(b, out);
  out << '\n';

  std::vector<std::vector<std::string>> rows, labels;
  for (const auto& op : b.ops) {
    (op.label ? labels : rows)
        .push_back({op.key, std::to_string(op.count), num(op.cpu_total_us), num(op.self_cpu_us),
                    num(op.cpu_total_us / static_cast<double>(op.count)), num(op.device_total_us)});
  }
  print_table(out, 1, {"op", "count", "cpu_total_us", "self_cpu_us", "cpu_mean_us", "device_us"}, rows);
  if (!labels.empty()) {
    out << "\nrecord_function labels (not ops: the overheads look through them)\n";
    print_table(out, 1, {"label", "count", "cpu_total_us", "self_cpu_us", "cpu_mean_us", "device_us"}, labels);
  }

  if (!b.kernels.empty()) {
    rows.clear();
    for (const auto& k : b.kernels) {
      rows.push_back({k.name, k.kind, std::to_string(k.count), num(k.total_us),
                      num(k.total_us / static_cast<double>(k.count)), num(k.min_us), num(k.max_us)});
    }
    out << '\n';
    print_table(out, 2, {"device", "kind", "count", "total_us", "mean_us", "min_us", "max_us"}, rows);
  }

  rows.clear();
  stats_rows(rows, "T1", "", b.overheads.t1);
  for (const auto& [name, st] : b.overheads.t2) stats_rows(rows, "T2", name, st);
  for (const auto& [name, st] : b.overheads.t3) stats_rows(rows, "T3", name, st);
  for (const auto& [name, st] : b.overheads.t4) stats_rows(rows, "T4", name, st);
  for (const auto& [name, st] : b.overheads.t5) stats_rows(rows, "T5", name, st);
  out << "\nhost overheads (DLRM trace analysis' model; CPU_EVENT_OVERHEAD " << num(b.model.cpu_event_overhead_us, 2)
      << " us, GPU_EVENT_OVERHEAD " << num(b.model.gpu_event_overhead_us, 2) << " us, KERNEL_LAUNCH_LENGTH "
      << num(b.model.kernel_launch_length_us, 2) << " us) over " << b.overheads.ops << " ops"
      << (b.overheads_in_iterations ? " in the iterations" : "") << "\n";
  print_table(out, 2, {"type", "name", "count", "mean_us", "std_us", "total_us"}, rows);
}

}  // namespace jetperf::traces
