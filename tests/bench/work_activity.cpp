// What a simulated board's update pays to read the layer backends' work log: work_between over
// one 4.9 ms sensor window (in_context's on an Orin) with the log full (16k notes: one runner
// noting an op every 0.4 ms, as resnet50's does, and a second source that began long before).
// The reader holds the lock every noting thread takes at each op for most of this time.
// Prints one JSON object: nanoseconds per call over 2000 calls.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/work_activity.hpp>

using namespace jetperf;

int main() {
  activity::enable();
  std::int64_t t = 1'000'000'000;
  activity::note(t, 2, 1.0);
  for (int i = 0; i < 20000; ++i) {
    t += 400'000;
    activity::note(t, 1, i % 3 ? 5.0 : 0.5);
  }
  constexpr int k_calls = 2000;
  std::vector<std::int64_t> ns;
  double check = 0;
  for (int k = 0; k < k_calls; ++k) {
    const auto a = monotonic_ns();
    const auto w = activity::work_between(t - 4'900'000, t, [](double x) { return x; });
    ns.push_back(monotonic_ns() - a);
    check += w.shares.size();
  }
  activity::disable();
  std::sort(ns.begin(), ns.end());
  nlohmann::json out{{"bench", "work_activity"},
                     {"window_ms", 4.9},
                     {"notes_logged", 16384},
                     {"calls", k_calls},
                     {"sources_seen_per_call", check / k_calls},
                     {"ns_p10", ns[k_calls / 10]},
                     {"ns_p50", ns[k_calls / 2]},
                     {"ns_p90", ns[k_calls * 9 / 10]}};
  std::cout << out.dump() << "\n";
  return check / k_calls == 2 ? 0 : 1;
}
