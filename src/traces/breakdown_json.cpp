#include <jetperf/traces/breakdown_writers.hpp>

#include <cmath>
#include <ostream>

#include <nlohmann/json.hpp>

namespace jetperf::traces {

namespace {

using json = nlohmann::json;

// Microseconds to the nanosecond: the trace holds nothing finer, and 12.345000000001 helps no one.
double us(double v) { return std::round(v * 1000.0) / 1000.0; }

json stats(const sample_stats& s) {
  if (s.count == 0) return {{"count", 0}, {"mean_us", nullptr}, {"std_us", nullptr}, {"total_us", 0}};
  return {{"count", s.count}, {"mean_us", us(s.mean)}, {"std_us", us(s.std)}, {"total_us", us(s.sum)}};
}

json by_name(const std::map<std::string, sample_stats>& m, const char* key) {
  json a = json::array();
  for (const auto& [name, s] : m) {
    json row = stats(s);
    row[key] = name;
    a.push_back(std::move(row));
  }
  return a;
}

// Each iteration with its ops, QPS and T1..T5 over every name.
json iterations_json(const std::vector<iteration>& iterations) {
  json its = json::array();
  for (const auto& it : iterations) {
    its.push_back({{"name", it.name},
                   {"start_us", us(it.start_us)},
                   {"duration_us", us(it.duration_us)},
                   {"ops", it.ops},
                   {"qps", it.qps ? json(*it.qps) : json(nullptr)},
                   {"overheads",
                    {{"t1", stats(it.t1)}, {"t2", stats(it.t2)}, {"t3", stats(it.t3)}, {"t4", stats(it.t4)}, {"t5", stats(it.t5)}}}});
  }
  return its;
}

}  // namespace

void write_breakdown_json(const trace_breakdown& b, std::ostream& out) {
  const trace_summary& s = b.summary;
  json doc;
  doc["summary"] = {{"events", s.events},
                    {"host_events", s.host_events},
                    {"device_events", s.device_events},
                    {"threads", s.threads},
                    {"unmatched_device_events", s.unmatched_device_events},
                    {"partial_overlaps", s.partial_overlaps},
                    {"span_us", us(s.span_us)},
                    {"device_busy_us", us(s.device_busy_us)},
                    {"iteration_source", b.iteration_source},
                    {"iterations", b.iterations.size()},
                    {"host_runtime_us", us(b.host_runtime_us)},
                    {"batch_size", b.batch_size ? json(*b.batch_size) : json(nullptr)},
                    {"qps", b.qps ? json(*b.qps) : json(nullptr)}};
  doc["iterations"] = iterations_json(b.iterations);
  json ops = json::array();
  for (const auto& op : b.ops) {
    ops.push_back({{"key", op.key},
                   {"count", op.count},
                   {"cpu_total_us", us(op.cpu_total_us)},
                   {"self_cpu_us", us(op.self_cpu_us)},
                   {"device_total_us", us(op.device_total_us)},
                   {"device_self_us", us(op.device_self_us)},
                   {"label", op.label}});
  }
  doc["ops"] = std::move(ops);
  json kernels = json::array();
  for (const auto& k : b.kernels) {
    kernels.push_back({{"name", k.name},
                       {"kind", k.kind},
                       {"count", k.count},
                       {"total_us", us(k.total_us)},
                       {"mean_us", us(k.total_us / static_cast<double>(k.count))},
                       {"min_us", us(k.min_us)},
                       {"max_us", us(k.max_us)}});
  }
  doc["kernels"] = std::move(kernels);
  const overhead_model& m = b.model;
  json launches = json::object();
  for (const auto& [name, list] : b.overheads.launches) launches[name] = list;
  doc["overheads"] = {{"model",
                       {{"cpu_event_overhead_us", m.cpu_event_overhead_us},
                        {"gpu_event_overhead_us", m.gpu_event_overhead_us},
                        {"kernel_launch_length_us", m.kernel_launch_length_us},
                        {"t1_max_gap_us", m.t1_max_gap_us},
                        {"launch_names", m.launch_names}}},
                      {"ops", b.overheads.ops},
                      {"scope", b.overheads_in_iterations ? "iterations" : "trace"},
                      {"t1", stats(b.overheads.t1)},
                      {"t2", by_name(b.overheads.t2, "op")},
                      {"t3", by_name(b.overheads.t3, "op")},
                      {"t4", by_name(b.overheads.t4, "launch")},
                      {"t5", by_name(b.overheads.t5, "op")},
                      {"launches", std::move(launches)}};
  out << doc.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace jetperf::traces
