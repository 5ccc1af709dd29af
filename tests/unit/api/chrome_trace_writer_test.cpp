// chrome_trace_writer: a span on a track the writer was not told of (a running job added it
// while its trace streamed) gets a thread of its own, named right before the span, and the
// document stays valid.
#include <jetperf/api/chrome_trace_writer.hpp>

#include <gtest/gtest.h>

using namespace jetperf;
using nlohmann::json;

TEST(chrome_trace_writer, a_track_first_seen_mid_document_is_named_before_its_span) {
  api::chrome_trace_writer writer({"phases"});
  std::string out;
  writer.begin(out, "t");
  writer.span(out, {1, 0, "phases", "busy", 1000, 2000, json::object()});
  writer.span(out, {1, 0, "late", "x", 3000, 3000, json::object()});
  writer.span(out, {1, 0, "late", "y", 4000, 5000, json::object()});
  writer.end(out, json::object());
  const auto j = json::parse(out);
  const auto& events = j["traceEvents"];
  std::vector<std::string> order;
  for (const auto& e : events) order.push_back(e["ph"].get<std::string>() + ":" + e["name"].get<std::string>());
  EXPECT_EQ(order, (std::vector<std::string>{"M:process_name", "M:thread_name", "M:thread_sort_index", "X:busy",
                                             "M:thread_name", "M:thread_sort_index", "i:x", "X:y"}));
  // After the job's own eight tracks.
  EXPECT_EQ(events[4]["args"]["name"], "late");
  EXPECT_EQ(events[4]["tid"], 9);
  EXPECT_EQ(events[6]["tid"], 9);
  EXPECT_EQ(events[7]["tid"], 9);
}
