#pragma once
// A point context whose timeline spans are kept in memory, for tests that check what a
// protocol puts on the job's timeline.
#include <string>
#include <vector>

#include <jetperf/measure/point_context.hpp>

namespace jetperf::test {

struct timeline_capture {
  std::vector<measure::timeline_span> spans;
  /// A context that records into `spans` (this object must outlive it).
  measure::point_context ctx() {
    measure::point_context c;
    c.timeline = [this](measure::timeline_span s) { spans.push_back(std::move(s)); };
    return c;
  }
  /// The spans on `track`, in the order they were recorded.
  std::vector<measure::timeline_span> on(const std::string& track) const {
    std::vector<measure::timeline_span> out;
    for (const auto& s : spans)
      if (s.track == track) out.push_back(s);
    return out;
  }
};

}  // namespace jetperf::test
