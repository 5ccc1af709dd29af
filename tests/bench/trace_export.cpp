// Trace export speed: a job's timeline as Chrome trace JSON (GET /v1/jobs/{id}/trace's writer),
// from the store, for the largest answer the route gives at full rate: two minutes of telemetry
// on 44 channels at 100 Hz (528 000 counter points) and 100 000 spans (a command job's markers
// and phases, or a layers job's runs). Also the store's read of those spans.
// Usage: bench_trace_export [runs] (default 3). Prints one JSON object: the median of the runs
// and their range. Target: the whole answer built in under 2 s on a board (the route waits on
// the job service's worker threads, never on the HTTP threads).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/api/chrome_trace.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <support/temp_dir.hpp>

namespace {

using clock_type = std::chrono::steady_clock;

constexpr std::size_t k_spans = 100000;
constexpr int k_channels = 44;
constexpr std::int64_t k_points_per_channel = 12000;  // 120 s at 100 Hz

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  jetperf::test::temp_dir dir;
  jetperf::store::database db(dir.file("bench.db"));
  jetperf::store::job_store jobs(db);
  const auto job = jobs.insert("command", nlohmann::json::object(), {}, 1, 1);
  jetperf::store::timeline_store timeline(db);
  std::vector<jetperf::store::timeline_span> spans;
  for (std::size_t i = 0; i < k_spans; ++i) {
    const auto t = static_cast<std::int64_t>(i) * 1'000'000;
    spans.push_back({job, static_cast<std::int64_t>(i / 1000), i % 2 ? "markers" : "phases", i % 4 < 2 ? "busy" : "sleep",
                     t, i % 2 ? t : t + 800'000, {{"cycle", std::to_string(i)}}});
  }
  auto t0 = clock_type::now();
  timeline.add(spans);
  const double store_s = seconds_since(t0);

  jetperf::api::trace_document doc;
  doc.title = "bench";
  for (int c = 0; c < k_channels; ++c) {
    jetperf::api::trace_counter tc{"rail.R" + std::to_string(c), "W", {}};
    for (std::int64_t i = 0; i < k_points_per_channel; ++i) tc.points.emplace_back(i * 10'000'000, 1.0 + 0.001 * static_cast<double>(i % 500));
    doc.counters.push_back(std::move(tc));
  }
  std::vector<double> read_s, write_s;
  std::size_t bytes = 0;
  for (int r = 0; r < runs; ++r) {
    t0 = clock_type::now();
    jetperf::store::timeline_query q;
    q.job_id = job;
    doc.spans = timeline.spans(q);
    read_s.push_back(seconds_since(t0));
    t0 = clock_type::now();
    bytes = jetperf::api::chrome_trace_json(doc).size();
    write_s.push_back(seconds_since(t0));
  }
  const nlohmann::json out = {{"bench", "trace_export"},
                              {"runs", runs},
                              {"spans", k_spans},
                              {"counter_points", k_channels * k_points_per_channel},
                              {"store_spans_s", store_s},
                              {"read_spans_median_s", median(read_s)},
                              {"read_spans_min_s", *std::min_element(read_s.begin(), read_s.end())},
                              {"read_spans_max_s", *std::max_element(read_s.begin(), read_s.end())},
                              {"write_json_median_s", median(write_s)},
                              {"write_json_min_s", *std::min_element(write_s.begin(), write_s.end())},
                              {"write_json_max_s", *std::max_element(write_s.begin(), write_s.end())},
                              {"bytes", bytes}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
