#pragma once
// A point context whose timeline spans are kept in memory, for tests that check what a
// protocol puts on the job's timeline.
#include <string>
#include <vector>

#include <jetperf/jobs/workload.hpp>

namespace jetperf::test {

struct timeline_capture {
  std::vector<store::timeline_span> spans;
  /// A context that records into `spans` (this object must outlive it).
  jobs::point_context ctx() {
    jobs::point_context c;
    c.timeline = [this](store::timeline_span s) { spans.push_back(std::move(s)); };
    return c;
  }
  /// The spans on `track`, in the order they were recorded.
  std::vector<store::timeline_span> on(const std::string& track) const {
    std::vector<store::timeline_span> out;
    for (const auto& s : spans)
      if (s.track == track) out.push_back(s);
    return out;
  }
};

}  // namespace jetperf::test
