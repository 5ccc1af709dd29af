#include <jetperf/api/chrome_trace_writer.hpp>

#include <set>

namespace jetperf::api {

namespace {

using nlohmann::json;

constexpr int k_pid = 1;

// Microseconds with nanosecond digits: the viewers read fractional ts.
json micros(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

const std::vector<std::string>& trace_track_order() {
  static const std::vector<std::string> order = {"points", "settings", "idle", "warmup", "windows",
                                                 "runs",   "phases",   "markers"};
  return order;
}

chrome_trace_writer::chrome_trace_writer(const std::vector<std::string>& tracks) : tracks_(tracks) {
  for (const auto& t : trace_track_order()) tids_.emplace(t, static_cast<int>(tids_.size()) + 1);
  for (const auto& t : tracks_)
    if (!tids_.count(t)) tids_.emplace(t, static_cast<int>(tids_.size()) + 1);
}

void chrome_trace_writer::begin(std::string& out, const std::string& title) {
  out += "{\"traceEvents\":[";
  append(out, {{"ph", "M"}, {"name", "process_name"}, {"pid", k_pid}, {"args", {{"name", title}}}});
  // By name: the viewer orders the threads by their sort index.
  const std::set<std::string> used(tracks_.begin(), tracks_.end());
  for (const auto& [track, tid] : tids_)
    if (used.count(track)) name_thread(out, track, tid);
}

void chrome_trace_writer::span(std::string& out, const store::timeline_span& s) {
  auto it = tids_.find(s.track);
  if (it == tids_.end()) {
    it = tids_.emplace(s.track, static_cast<int>(tids_.size()) + 1).first;
    name_thread(out, s.track, it->second);
  }
  json args = s.args;
  if (s.point_index) args["point"] = *s.point_index;
  json e = {{"name", s.name}, {"cat", s.track}, {"pid", k_pid}, {"tid", it->second}, {"ts", micros(s.t_start_ns)},
            {"args", std::move(args)}};
  if (s.t_end_ns > s.t_start_ns) {
    e["ph"] = "X";
    e["dur"] = micros(s.t_end_ns - s.t_start_ns);
  } else {
    e["ph"] = "i";
    e["s"] = "t";
  }
  append(out, e);
}

void chrome_trace_writer::counter(std::string& out, const std::string& label, std::int64_t t_ns, double value) {
  append(out, {{"ph", "C"}, {"name", label}, {"pid", k_pid}, {"ts", micros(t_ns)}, {"args", {{"value", value}}}});
}

void chrome_trace_writer::end(std::string& out, const json& metadata) {
  out += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":";
  out += metadata.dump(-1, ' ', false, json::error_handler_t::replace);
  out += "}\n";
}

std::string chrome_trace_writer::counter_label(const std::string& name, const std::string& unit) {
  return unit.empty() ? name : name + " (" + unit + ")";
}

// Each event on a line of its own: a large trace stays readable with grep and head.
void chrome_trace_writer::append(std::string& out, const json& event) {
  out += first_ ? "\n" : ",\n";
  first_ = false;
  out += event.dump(-1, ' ', false, json::error_handler_t::replace);
}

void chrome_trace_writer::name_thread(std::string& out, const std::string& track, int tid) {
  append(out, {{"ph", "M"}, {"name", "thread_name"}, {"pid", k_pid}, {"tid", tid}, {"args", {{"name", track}}}});
  append(out, {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", k_pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
}

}  // namespace jetperf::api
