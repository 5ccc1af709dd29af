#include <jetperf/api/chrome_trace.hpp>

#include <algorithm>
#include <map>

namespace jetperf::api {

namespace {

using nlohmann::json;

constexpr int k_pid = 1;

// Microseconds with nanosecond digits: the viewers read fractional ts.
json micros(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

// Each event on a line of its own: a large trace stays readable with grep and head.
void append(std::string& out, const json& event, bool& first) {
  out += first ? "\n" : ",\n";
  first = false;
  out += event.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

const std::vector<std::string>& trace_track_order() {
  static const std::vector<std::string> order = {"points", "settings", "idle", "warmup", "windows",
                                                 "runs",   "phases",   "markers"};
  return order;
}

std::string chrome_trace_json(const trace_document& doc) {
  std::map<std::string, int> tids;
  for (const auto& t : trace_track_order()) tids.emplace(t, static_cast<int>(tids.size()) + 1);
  for (const auto& s : doc.spans)
    if (!tids.count(s.track)) tids.emplace(s.track, static_cast<int>(tids.size()) + 1);

  std::string out = "{\"traceEvents\":[";
  bool first = true;
  append(out, {{"ph", "M"}, {"name", "process_name"}, {"pid", k_pid}, {"args", {{"name", doc.title}}}}, first);
  std::map<std::string, bool> used;
  for (const auto& s : doc.spans) used[s.track] = true;
  for (const auto& [track, tid] : tids) {
    if (!used.count(track)) continue;
    append(out, {{"ph", "M"}, {"name", "thread_name"}, {"pid", k_pid}, {"tid", tid}, {"args", {{"name", track}}}}, first);
    append(out, {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", k_pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}},
           first);
  }
  for (const auto& s : doc.spans) {
    json args = s.args;
    if (s.point_index) args["point"] = *s.point_index;
    json e = {{"name", s.name}, {"cat", s.track}, {"pid", k_pid}, {"tid", tids.at(s.track)}, {"ts", micros(s.t_start_ns)},
              {"args", std::move(args)}};
    if (s.t_end_ns > s.t_start_ns) {
      e["ph"] = "X";
      e["dur"] = micros(s.t_end_ns - s.t_start_ns);
    } else {
      e["ph"] = "i";
      e["s"] = "t";
    }
    append(out, e, first);
  }
  for (const auto& c : doc.counters) {
    const auto name = c.unit.empty() ? c.name : c.name + " (" + c.unit + ")";
    for (const auto& [t, v] : c.points)
      append(out, {{"ph", "C"}, {"name", name}, {"pid", k_pid}, {"ts", micros(t)}, {"args", {{"value", v}}}}, first);
  }
  out += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":";
  out += doc.metadata.dump(-1, ' ', false, json::error_handler_t::replace);
  out += "}\n";
  return out;
}

}  // namespace jetperf::api
