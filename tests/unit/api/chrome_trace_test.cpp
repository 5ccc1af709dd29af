// The Chrome trace-event JSON of a job: named tracks in the job's order, spans as complete
// events and instants as instant events in microseconds, one counter per channel, metadata.
#include <gtest/gtest.h>

#include <jetperf/api/chrome_trace.hpp>

using namespace jetperf;
using nlohmann::json;

TEST(chrome_trace, spans_instants_counters_and_metadata_in_trace_event_form) {
  api::trace_document doc;
  doc.title = "jetperf job 3 (command)";
  doc.spans = {{3, 0, "points", "point 0", 1'000'000, 5'000'000, {{"status", "ok"}}},
               {3, 0, "phases", "busy", 2'000'500, 3'000'500, json::object()},
               {3, 0, "markers", "cycle", 2'000'000, 2'000'000, {{"i", "1"}}},
               {3, std::nullopt, "custom", "x", 7'000'000, 8'000'000, json::object()}};
  doc.counters = {{"rail.CPU", "W", {{1'000'000, 1.5}, {2'000'000, 2.5}}}};
  doc.metadata = {{"job", 3}, {"clock", "CLOCK_MONOTONIC"}};
  const auto j = json::parse(api::chrome_trace_json(doc));
  EXPECT_EQ(j["otherData"]["job"], 3);
  EXPECT_EQ(j["displayTimeUnit"], "ms");
  std::map<int, std::string> threads;
  std::vector<json> x, i, c;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") threads[e["tid"].get<int>()] = e["args"]["name"];
    if (e["ph"] == "M" && e["name"] == "process_name") EXPECT_EQ(e["args"]["name"], doc.title);
    if (e["ph"] == "X") x.push_back(e);
    if (e["ph"] == "i") i.push_back(e);
    if (e["ph"] == "C") c.push_back(e);
  }
  // The job's own tracks keep their order; an unknown one comes after them.
  EXPECT_EQ(threads, (std::map<int, std::string>{{1, "points"}, {7, "phases"}, {8, "markers"}, {9, "custom"}}));
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x[0]["name"], "point 0");
  EXPECT_DOUBLE_EQ(x[0]["ts"].get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(x[0]["dur"].get<double>(), 4000.0);
  EXPECT_EQ(x[0]["args"]["point"], 0);
  EXPECT_EQ(x[0]["args"]["status"], "ok");
  EXPECT_DOUBLE_EQ(x[1]["ts"].get<double>(), 2000.5);
  EXPECT_EQ(x[1]["tid"], 7);
  EXPECT_FALSE(x[2]["args"].contains("point"));
  ASSERT_EQ(i.size(), 1u);
  EXPECT_EQ(i[0]["s"], "t");
  EXPECT_EQ(i[0]["args"]["i"], "1");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1]["name"], "rail.CPU (W)");
  EXPECT_DOUBLE_EQ(c[1]["args"]["value"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(c[1]["ts"].get<double>(), 2000.0);
}
