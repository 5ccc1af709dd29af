// align_trace on hand-made traces: markers with a known offset and jitter give it back within
// the uncertainty; a trace holding only some of the phases is matched at the right shift;
// Kineto's base time and epoch stamps map through the job's clock reading; an explicit offset
// wins; and nothing to go by is refused naming offset_ns.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/trace_alignment.hpp>
#include <jetperf/traces/trace_reader.hpp>

namespace jetperf::traces {
namespace {

using nlohmann::json;

json event(const std::string& name, double ts_us, double dur_us, const std::string& cat = "user_annotation") {
  return {{"ph", "X"}, {"cat", cat}, {"name", name}, {"pid", 1}, {"tid", 1}, {"ts", ts_us}, {"dur", dur_us}};
}

trace parsed(const json& events, std::optional<std::int64_t> base_ns = std::nullopt) {
  json doc = {{"traceEvents", events}};
  if (base_ns) doc["baseTimeNanoseconds"] = *base_ns;
  return parse_trace(doc.dump());
}

TEST(trace_alignment, markers_with_jitter_give_the_offset_within_its_uncertainty) {
  constexpr std::int64_t offset = 123'456'789'000;  // daemon_t - trace_t
  std::mt19937 rng(7);
  std::normal_distribution<double> jitter_ns(0, 40'000);
  json events = json::array();
  alignment_input in;
  for (int i = 0; i < 50; ++i) {
    const std::int64_t t0 = 1'000'000'000 + i * 20'000'000, t1 = t0 + 10'000'000;  // trace ns
    events.push_back(event(i % 2 ? "train" : "eval", static_cast<double>(t0) / 1000, static_cast<double>(t1 - t0) / 1000));
    in.phases.push_back({i % 2 ? "train" : "eval", t0 + offset + static_cast<std::int64_t>(jitter_ns(rng)),
                         t1 + offset + static_cast<std::int64_t>(jitter_ns(rng))});
  }
  events.push_back(event("train", 1e6, 5, "kernel"));  // device work never stands for a phase
  in.marker_latency_ns = 1000;
  const auto a = align_trace(parsed(events), in);
  EXPECT_EQ(a.method, alignment_method::markers);
  EXPECT_EQ(a.matched, 50u);
  EXPECT_EQ(a.trace_events, 50u);
  EXPECT_LE(std::llabs(a.offset_ns - offset), a.uncertainty_ns) << a.offset_ns - offset << " vs " << a.uncertainty_ns;
  // The spread of 40 us jitter, not the latency floor.
  EXPECT_GT(a.uncertainty_ns, 20'000);
  EXPECT_LT(a.uncertainty_ns, 80'000);
  EXPECT_STREQ(to_string(a.method), "markers");
}

TEST(trace_alignment, a_trace_of_some_of_the_phases_is_matched_where_its_durations_fit) {
  // Daemon: 6 steps of irregular length; the trace holds steps 3 and 4 only.
  const std::int64_t lengths[] = {10, 30, 20, 50, 15, 40};
  alignment_input in;
  std::int64_t t = 0;
  for (auto len : lengths) {
    in.phases.push_back({"step", t * 1'000'000, (t + len) * 1'000'000});
    t += len + 5;
  }
  constexpr std::int64_t offset = 7'000'000'000;  // the trace's clock is 7 s behind
  json events = json::array();
  for (int i : {3, 4}) {
    const auto& p = in.phases[static_cast<std::size_t>(i)];
    events.push_back(event("step", static_cast<double>(p.t_start_ns - offset) / 1000,
                           static_cast<double>(p.t_end_ns - p.t_start_ns) / 1000));
  }
  const auto a = align_trace(parsed(events), in);
  EXPECT_EQ(a.method, alignment_method::markers);
  EXPECT_EQ(a.matched, 2u);
  EXPECT_EQ(a.offset_ns, offset);
  EXPECT_EQ(a.uncertainty_ns, in.marker_latency_ns);
}

TEST(trace_alignment, kineto_base_time_and_epoch_stamps_map_through_the_clock_reading) {
  alignment_input in;
  in.clocks = clock_reference{1'700'000'000'000'000'000, 3'000, 500};  // realtime - monotonic
  // Kineto: ts in us after baseTimeNanoseconds.
  const std::int64_t base = 1'700'000'100'000'000'000;
  auto a = align_trace(parsed(json::array({event("aten::mm", 10, 5, "cpu_op")}), base), in);
  EXPECT_EQ(a.method, alignment_method::base_time);
  EXPECT_EQ(a.offset_ns, base - in.clocks->realtime_minus_monotonic_ns);  // 100 s of monotonic at ts 0
  EXPECT_EQ(a.uncertainty_ns, 3'000 + 500 + 1'000);
  // Older Kineto: absolute epoch microseconds, no base.
  a = align_trace(parsed(json::array({event("aten::mm", 1.7000001e15, 5, "cpu_op")})), in);
  EXPECT_EQ(a.method, alignment_method::base_time);
  EXPECT_EQ(a.offset_ns, -in.clocks->realtime_minus_monotonic_ns);
  EXPECT_NE(a.detail.find("epoch"), std::string::npos);
}

TEST(trace_alignment, an_explicit_offset_wins_and_nothing_to_go_by_is_refused) {
  alignment_input in;
  in.phases.push_back({"train", 1000, 2000});
  in.offset_ns = -42;
  const auto events = json::array({event("train", 1, 1)});
  const auto a = align_trace(parsed(events), in);
  EXPECT_EQ(a.method, alignment_method::explicit_offset);
  EXPECT_EQ(a.offset_ns, -42);
  EXPECT_EQ(a.uncertainty_ns, 0);

  in.offset_ns.reset();
  try {
    // Legacy profiler: profile-relative times, no base, no matching names.
    align_trace(parsed(json::array({event("aten::mm", 12, 3, "cpu_op")})), in);
    FAIL() << "aligned with nothing to go by";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "offset_ns");
    EXPECT_EQ(e.code(), "no_alignment");
    EXPECT_NE(std::string(e.what()).find("baseTimeNanoseconds"), std::string::npos) << e.what();
  }
  // A wall-clock trace of a job without a clock reading cannot be mapped either.
  EXPECT_THROW(align_trace(parsed(json::array({event("x", 1, 1)}), std::int64_t{1'700'000'000'000'000'000}), in),
               validation_error);
}

}  // namespace
}  // namespace jetperf::traces
