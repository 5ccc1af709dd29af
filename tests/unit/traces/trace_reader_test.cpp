// The reader: both trace forms, exact times, and a clear validation_error (what and where) for
// every malformed input, never a crash.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/trace_reader.hpp>

#include <support/gpu_trace.hpp>

namespace jetperf::traces {
namespace {

// The error a text gives: "field: message", or "" when it parses.
std::string error_of(const std::string& text, const trace_limits& limits = {}) {
  try {
    parse_trace(text, limits);
  } catch (const validation_error& e) {
    return e.field() + ": " + e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(trace_reader, reads_a_kineto_trace) {
  const trace t = parse_trace(test::gpu_trace_json());
  EXPECT_TRUE(t.has_envelope);
  EXPECT_EQ(t.base_time_ns, 1700000000000000000);
  EXPECT_EQ(t.events.size(), 23u);
  EXPECT_EQ(t.other_phase_events, 3u);  // two ac2g flow ends and a thread name
  EXPECT_EQ(t.threads.size(), 3u);
  const trace_event& launch = t.events[4];
  EXPECT_EQ(t.name_of(launch), "cudaLaunchKernel");
  EXPECT_EQ(launch.category, event_category::runtime);
  EXPECT_EQ(launch.ts_ns, 120000);
  EXPECT_EQ(launch.dur_ns, 10000);
  EXPECT_EQ(launch.correlation, 1);
  EXPECT_EQ(launch.external_id, 4);
  EXPECT_EQ(t.events[18].category, event_category::kernel);
  EXPECT_EQ(t.events[18].stream, 7);
  EXPECT_EQ(t.events[21].category, event_category::memcpy);
  EXPECT_EQ(t.threads[t.events[18].thread].pid, "0");
  EXPECT_EQ(t.threads[t.events[18].thread].tid, "7");
}

TEST(trace_reader, reads_a_bare_array_as_the_legacy_profiler_writes_it) {
  const trace t = parse_trace(
      R"([{"name": "aten::add", "ph": "X", "ts": 121, "dur": 27, "tid": 1, "pid": "CPU functions", "args": {}}])");
  EXPECT_FALSE(t.has_envelope);
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].category, event_category::cpu_op);  // no "cat": a CPU function
  EXPECT_EQ(t.threads[0].pid, "CPU functions");
  EXPECT_EQ(t.events[0].ts_ns, 121000);
}

TEST(trace_reader, keeps_every_nanosecond_of_an_epoch_timestamp) {
  // 1.7e15 us with three decimals: a double would round the last digits away.
  const trace t = parse_trace(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1700000000000000.123, "dur": 0.001},
    {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 1700000000000000.1239, "dur": 1.5e1},
    {"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 1, "ts": -2.5, "dur": 12.3}]})");
  EXPECT_EQ(t.events[0].ts_ns, 1700000000000000123);
  EXPECT_EQ(t.events[0].dur_ns, 1);
  EXPECT_EQ(t.events[1].ts_ns, 1700000000000000124);  // rounded at the fourth decimal
  EXPECT_EQ(t.events[1].dur_ns, 15000);
  EXPECT_EQ(t.events[2].ts_ns, -2500);
  EXPECT_EQ(t.events[2].dur_ns, 12300);
}

TEST(trace_reader, skips_what_it_does_not_read) {
  const trace t = parse_trace(R"({"a": {"b": [1, {"traceEvents": 3}]}, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1,
     "args": {"Input Dims": [[1, 2], []], "nested": {"correlation": 7}, "correlation": 9}, "extra": [{"ts": "x"}]}],
    "z": null})");
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].correlation, 9);
}

TEST(trace_reader, malformed_inputs_name_what_and_where) {
  const std::string ok_event = R"({"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
  struct bad {
    std::string text;
    std::string field, message;
  };
  const std::vector<bad> cases = {
      {"{not json", "", "not valid JSON at byte"},
      {"", "", "not valid JSON"},
      {R"({"traceEvents": [)" + ok_event, "", "not valid JSON"},  // cut off
      {R"({"schemaVersion": 1})", "traceEvents", "no \"traceEvents\" array"},
      {R"({"traceEvents": {}})", "traceEvents", "no \"traceEvents\" array"},
      {"42", "", "the document is a number"},
      {R"({"traceEvents": [)" + ok_event + R"(, {"ph": "X", "name": "aten::mm", "pid": 1, "tid": 1, "dur": 3}]})",
       "traceEvents[1].ts", "event 1 (aten::mm): missing \"ts\""},
      {R"({"traceEvents": [{"ph": "X", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 3}]})", "traceEvents[0].dur",
       "missing \"dur\""},
      {R"([{"ph": "X", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 3, "dur": -2}])", "[0].dur",
       "event 0 (aten::mm): negative \"dur\" (-2"},
      {R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "3", "dur": 1}]})", "traceEvents[0].ts",
       "ts is a string, not a number"},
      {R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": null, "dur": 1}]})", "traceEvents[0].ts",
       "ts is null, not a number"},
      {R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1e300, "dur": 1}]})", "traceEvents[0].ts",
       "ts is out of range"},
      {R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 4000000000000000.5, "dur": 1}]})",
       "traceEvents[0].ts", "ts is out of range"},
      {R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 9000000000000000}]})",
       "traceEvents[0].dur", "dur is out of range"},
      {R"({"traceEvents": [)" + ok_event + R"(, 7]})", "traceEvents[1]", "an event is a number, not an object"},
      {R"({"traceEvents": [{"name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]})", "traceEvents[0].ph",
       "missing \"ph\""},
      {R"({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]})", "traceEvents[0].name",
       "missing \"name\""},
      {R"({"traceEvents": [{"ph": "X", "name": "a", "tid": 1, "ts": 1, "dur": 1}]})", "traceEvents[0].pid",
       "missing \"pid\""},
      {R"({"traceEvents": [], "traceEvents": []})", "traceEvents", "given twice"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_trace(c.text);
      ADD_FAILURE() << "parsed";
    } catch (const validation_error& e) {
      EXPECT_EQ(e.field(), c.field);
      EXPECT_TRUE(contains(e.what(), c.message)) << e.what();
      EXPECT_EQ(e.code(), "invalid_trace");
    }
  }
}

TEST(trace_reader, limits_are_refused_by_name) {
  const std::string two = R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
                              {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}])";
  trace_limits few;
  few.max_events = 1;
  EXPECT_TRUE(contains(error_of(two, few), "traceEvents: more than 1 complete events")) << error_of(two, few);
  trace_limits small;
  small.max_bytes = 10;
  EXPECT_TRUE(contains(error_of(two, small), "file: the trace has")) << error_of(two, small);
  EXPECT_EQ(error_of(two), "");
}

TEST(trace_reader, a_missing_file_is_an_error_naming_it) {
  try {
    read_trace_file("/nonexistent/trace.json");
    FAIL() << "read";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "file");
    EXPECT_TRUE(contains(e.what(), "/nonexistent/trace.json")) << e.what();
  }
}

TEST(trace_reader, every_prefix_and_byte_flip_parses_or_throws_the_typed_error) {
  const std::string full = test::gpu_trace_json();
  for (std::size_t n = 0; n < full.size(); n += 7) {
    try {
      parse_trace(full.substr(0, n));
    } catch (const validation_error&) {
    }
  }
  for (std::size_t i = 0; i < full.size(); i += 5) {
    for (char c : {'"', '{', ']', '-', '\xff', '\0', 'e'}) {
      std::string s = full;
      s[i] = c;
      try {
        parse_trace(s);
      } catch (const validation_error&) {
      }
    }
  }
  // Ids written as floats beyond int64 are no ids, not undefined behaviour.
  const trace big = parse_trace(R"([{"ph": "X", "name": "k", "cat": "kernel", "pid": 0, "tid": 7, "ts": 1, "dur": 1,
                                     "args": {"correlation": 1e300, "External id": 2.0, "stream": -1e19}}])");
  EXPECT_EQ(big.events[0].correlation, -1);
  EXPECT_EQ(big.events[0].external_id, 2);
  EXPECT_EQ(big.events[0].stream, -1);
  // Deep nesting in a skipped value costs no stack.
  std::string deep = R"({"x": )" + std::string(100000, '[') + std::string(100000, ']') + R"(, "traceEvents": []})";
  EXPECT_EQ(error_of(deep), "");
}

}  // namespace
}  // namespace jetperf::traces
