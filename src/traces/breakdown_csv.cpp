#include <jetperf/traces/breakdown_writers.hpp>

#include <cstdio>
#include <ostream>
#include <string>

#include <jetperf/common/csv_quote.hpp>

namespace jetperf::traces {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

// section,name,count,total_us,self_us,device_us,mean_us,std_us,value
struct row {
  std::string section, name, count, total, self, device, mean, std, value;
};

void put(std::ostream& out, const row& r) {
  // Kernel names carry commas and quotes (template arguments); csv_quote also defuses formulas.
  out << r.section << ',' << csv_quote(r.name) << ',' << r.count << ',' << r.total << ',' << r.self << ',' << r.device
      << ',' << r.mean << ',' << r.std << ',' << r.value << '\n';
}

void put_stats(std::ostream& out, const char* section, const std::string& name, const sample_stats& s) {
  if (s.count == 0) return;
  put(out, {section, name, std::to_string(s.count), num(s.sum), "", "", num(s.mean), num(s.std), ""});
}

}  // namespace

void write_breakdown_csv(const trace_breakdown& b, std::ostream& out) {
  out << "section,name,count,total_us,self_us,device_us,mean_us,std_us,value\n";
  const auto summary = [&](const char* name, const std::string& value) {
    put(out, {"summary", name, "", "", "", "", "", "", value});
  };
  const trace_summary& s = b.summary;
  summary("events", std::to_string(s.events));
  summary("host_events", std::to_string(s.host_events));
  summary("device_events", std::to_string(s.device_events));
  summary("threads", std::to_string(s.threads));
  summary("unmatched_device_events", std::to_string(s.unmatched_device_events));
  summary("partial_overlaps", std::to_string(s.partial_overlaps));
  summary("span_us", num(s.span_us));
  summary("device_busy_us", num(s.device_busy_us));
  summary("iterations", std::to_string(b.iterations.size()));
  summary("host_runtime_us", num(b.host_runtime_us));
  summary("batch_size", b.batch_size ? std::to_string(*b.batch_size) : "");
  summary("qps", b.qps ? num(*b.qps) : "");
  summary("cpu_event_overhead_us", num(b.model.cpu_event_overhead_us));
  summary("gpu_event_overhead_us", num(b.model.gpu_event_overhead_us));
  summary("kernel_launch_length_us", num(b.model.kernel_launch_length_us));

  summary("overheads_scope", b.overheads_in_iterations ? "iterations" : "trace");

  for (const auto& it : b.iterations) {
    put(out, {"iteration", it.name, "1", num(it.duration_us), "", "", "", "", num(it.start_us)});
    put(out, {"iteration_ops", it.name, "", "", "", "", "", "", std::to_string(it.ops)});
    put(out, {"iteration_qps", it.name, "", "", "", "", "", "", it.qps ? num(*it.qps) : ""});
    const sample_stats* types[] = {&it.t1, &it.t2, &it.t3, &it.t4, &it.t5};
    for (int k = 0; k < 5; ++k) put_stats(out, ("iteration_t" + std::to_string(k + 1)).c_str(), it.name, *types[k]);
  }
  for (const auto& op : b.ops) {
    put(out, {"op", op.key, std::to_string(op.count), num(op.cpu_total_us), num(op.self_cpu_us), num(op.device_total_us),
              num(op.cpu_total_us / static_cast<double>(op.count)), "", op.label ? "label" : ""});
  }
  for (const auto& k : b.kernels) {
    put(out, {"kernel", k.name, std::to_string(k.count), num(k.total_us), "", num(k.total_us),
              num(k.total_us / static_cast<double>(k.count)), "", k.kind});
  }
  put_stats(out, "t1", "", b.overheads.t1);
  for (const auto& [name, st] : b.overheads.t2) put_stats(out, "t2", name, st);
  for (const auto& [name, st] : b.overheads.t3) put_stats(out, "t3", name, st);
  for (const auto& [name, st] : b.overheads.t4) put_stats(out, "t4", name, st);
  for (const auto& [name, st] : b.overheads.t5) put_stats(out, "t5", name, st);
}

}  // namespace jetperf::traces
