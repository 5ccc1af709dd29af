#include <jetperf/api/chrome_trace.hpp>

#include <set>

#include <jetperf/api/chrome_trace_writer.hpp>

namespace jetperf::api {

std::string chrome_trace_json(const trace_document& doc) {
  std::vector<std::string> tracks;
  std::set<std::string> seen;
  for (const auto& s : doc.spans)
    if (seen.insert(s.track).second) tracks.push_back(s.track);
  chrome_trace_writer writer(tracks);
  std::string out;
  writer.begin(out, doc.title);
  for (const auto& s : doc.spans) writer.span(out, s);
  for (const auto& c : doc.counters) {
    const auto label = chrome_trace_writer::counter_label(c.name, c.unit);
    for (const auto& [t, v] : c.points) writer.counter(out, label, t, v);
  }
  writer.end(out, doc.metadata);
  return out;
}

}  // namespace jetperf::api
