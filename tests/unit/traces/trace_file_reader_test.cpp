// read_trace_file parses the file as it reads it: the same trace as parse_trace gives for the
// file's text (the fixtures, the hand-made GPU trace), the same error at the same place for a
// malformed or cut file, and an events' vector sized once, even when a "ph" key is cut by one
// of the reader's reads.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/trace_reader.hpp>

#include <support/fixtures.hpp>
#include <support/gpu_trace.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::traces {
namespace {

using ::jetperf::test::fixtures_dir;
using ::jetperf::test::read_file;
using ::jetperf::test::temp_dir;
using ::jetperf::test::write_file;

void expect_same(const trace& a, const trace& b) {
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    const auto &x = a.events[i], &y = b.events[i];
    EXPECT_EQ(x.ts_ns, y.ts_ns) << i;
    EXPECT_EQ(x.dur_ns, y.dur_ns) << i;
    EXPECT_EQ(a.name_of(x), b.name_of(y)) << i;
    EXPECT_EQ(a.threads[x.thread].pid, b.threads[y.thread].pid) << i;
    EXPECT_EQ(a.threads[x.thread].tid, b.threads[y.thread].tid) << i;
    EXPECT_EQ(x.category, y.category) << i;
    EXPECT_EQ(x.external_id, y.external_id) << i;
    EXPECT_EQ(x.correlation, y.correlation) << i;
    EXPECT_EQ(x.stream, y.stream) << i;
  }
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.base_time_ns, b.base_time_ns);
  EXPECT_EQ(a.has_envelope, b.has_envelope);
  EXPECT_EQ(a.other_phase_events, b.other_phase_events);
}

// "field: message", or "" when it parses.
template <class Read>
std::string error_of(Read&& read) {
  try {
    read();
  } catch (const validation_error& e) {
    return e.field() + ": " + e.what();
  }
  return "";
}

TEST(trace_file_reader, a_file_reads_as_its_text_parses) {
  temp_dir tmp;
  const std::string gpu = tmp.file("gpu.json");
  write_file(gpu, test::gpu_trace_json());
  for (const auto& path : {gpu, fixtures_dir() + "/traces/cnn_cpu.json", fixtures_dir() + "/traces/dlrm_cpu.json"}) {
    SCOPED_TRACE(path);
    const trace from_file = read_trace_file(path);
    expect_same(from_file, parse_trace(read_file(path)));
    EXPECT_GT(from_file.events.size(), 0u);
  }
}

TEST(trace_file_reader, a_malformed_or_cut_file_fails_as_its_text_does) {
  temp_dir tmp;
  const std::string path = tmp.file("bad.json");
  const std::string full = test::gpu_trace_json();
  std::vector<std::string> texts = {"not json", R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "ts": 3}]})",
                                    R"({"traceEvents": 3})", R"({"traceEvents": []} trailing)", ""};
  for (std::size_t n = 1; n < full.size(); n += 97) texts.push_back(full.substr(0, n));
  for (const auto& text : texts) {
    SCOPED_TRACE(text.substr(0, 80));
    write_file(path, text);
    const auto from_text = error_of([&] { parse_trace(text); });
    EXPECT_NE(from_text, "");
    EXPECT_EQ(error_of([&] { read_trace_file(path); }), from_text);
  }
}

TEST(trace_file_reader, the_events_vector_is_sized_once_from_the_phase_keys) {
  // Padding puts the second event's "ph" key across the first 256 KiB read of the file.
  const std::string event = R"({"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
  const std::string head = "{\"pad\": \"", tail = "\", \"traceEvents\": [" + event + ", {";
  std::string text = head + std::string(256 * 1024 - 1 - head.size() - tail.size(), 'x') + tail;
  ASSERT_EQ(text.size(), 256u * 1024 - 1);
  text += "\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}, {\"ph\": \"i\"}]}";
  temp_dir tmp;
  const std::string path = tmp.file("cut.json");
  write_file(path, text);
  const trace t = read_trace_file(path);
  ASSERT_EQ(t.events.size(), 2u);
  EXPECT_EQ(t.other_phase_events, 1u);
  // Three "ph" keys, the instant's too: room for three, and no more was ever asked for.
  EXPECT_EQ(t.events.capacity(), 3u);
}

}  // namespace
}  // namespace jetperf::traces
