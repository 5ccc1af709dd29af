#pragma once
// Chrome trace-event JSON written event by event, so that a document can be produced in pieces
// (the trace route streams it from the store) or whole (chrome_trace_json): the opening with the
// process's and the tracks' names, complete events (ph X) and instants (ph i) for spans, counter
// events (ph C), and the closing with the metadata. Each event on a line of its own.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/timeline_store.hpp>

namespace jetperf::api {

/// The tracks in the order the viewer lists them (the job's outline first); any other track
/// follows, in order of appearance.
const std::vector<std::string>& trace_track_order();

class chrome_trace_writer {
 public:
  /// `tracks`: those the spans are on, in order of their first span; each gets a thread after
  /// trace_track_order()'s own.
  explicit chrome_trace_writer(const std::vector<std::string>& tracks);

  /// Appends the document's opening: the process named `title`, then each track's thread name.
  void begin(std::string& out, const std::string& title);
  /// Appends one span; a track not given to the constructor (a running job added it meanwhile)
  /// gets its thread, named right before the span.
  void span(std::string& out, const store::timeline_span& s);
  /// Appends one point of the counter track `label` (counter_label()).
  void counter(std::string& out, const std::string& label, std::int64_t t_ns, double value);
  /// Appends the closing, with `metadata` as otherData.
  void end(std::string& out, const nlohmann::json& metadata);

  /// A channel's counter track: "rail.VDD_CPU_CV (W)", or the name alone without a unit.
  static std::string counter_label(const std::string& name, const std::string& unit);

 private:
  void append(std::string& out, const nlohmann::json& event);
  void name_thread(std::string& out, const std::string& track, int tid);

  std::map<std::string, int> tids_;
  std::vector<std::string> tracks_;
  bool first_ = true;
};

}  // namespace jetperf::api
