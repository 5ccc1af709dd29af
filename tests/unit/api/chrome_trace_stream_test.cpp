// chrome_trace_stream: the trace produced from the store a page at a time is the text
// chrome_trace_json writes for the same spans and samples read whole (the route's answer before
// it streamed), at page, window and piece sizes small enough that every edge is crossed: spans
// with equal starts, a track first seen late, samples with equal times in one channel, buckets,
// the span limit, a caller's first page. And pieces stay near their size.
#include <jetperf/api/chrome_trace_stream.hpp>

#include <gtest/gtest.h>

#include <jetperf/api/chrome_trace.hpp>
#include <jetperf/store/job_store.hpp>

namespace jetperf::api {
namespace {

using nlohmann::json;

constexpr std::int64_t k_us = 1000;

class chrome_trace_stream_test : public ::testing::Test {
 protected:
  chrome_trace_stream_test() {
    store::job_store jobs(db_);
    job_ = jobs.insert("idle", json::object(), {}, 1, 1.0);
    std::vector<store::timeline_span> spans;
    for (int i = 0; i < 40; ++i) {
      const std::int64_t t = (i / 3) * 7 * k_us;  // three spans at each start
      spans.push_back({job_, i / 10, i % 3 == 0 ? "phases" : "markers", "s" + std::to_string(i), t,
                       i % 3 == 0 ? t + 5 * k_us : t, {{"i", i}}});
    }
    // Tracks of no fixed order, first seen late, one of them before the other at an equal start.
    spans.push_back({job_, std::nullopt, "zeta", "z", 70 * k_us, 71 * k_us, json::object()});
    spans.push_back({job_, std::nullopt, "clocks", "c", 70 * k_us, 70 * k_us, {{"realtime_ns", 5}}});
    timeline_.add(spans);
    const auto power = samples_.channel_id("rail.VDD_CPU", "W", "test");
    const auto clock = samples_.channel_id("clock.gpu", "Hz", "test");
    samples_.channel_id("temp.unused", "C", "test");  // no samples: no counter track
    std::vector<store::sample_row> rows;
    for (std::int64_t t = 0; t <= 100 * k_us; t += k_us) {
      rows.push_back({power, t, 1.0 + static_cast<double>(t % 7)});
      rows.push_back({clock, t, 1e9});
      if (t % (10 * k_us) == 0) rows.push_back({power, t, 9.0});  // two samples at one time
    }
    samples_.insert(job_, rows);
  }

  trace_selection selection() const {
    trace_selection sel;
    sel.title = "jetperf job 1 (idle)";
    sel.spans.job_id = job_;
    sel.tracks = timeline_.outline(sel.spans).tracks;
    sel.channels = samples_.channels();
    sel.counters_from_ns = 3 * k_us;
    sel.counters_to_ns = 95 * k_us;
    sel.max_buckets = 1000;
    sel.metadata = {{"job", job_}, {"clock", "CLOCK_MONOTONIC"}};
    return sel;
  }

  // What the route answered before it streamed: everything read at once, written whole.
  std::string whole(const trace_selection& sel) const {
    trace_document doc;
    doc.title = sel.title;
    doc.metadata = sel.metadata;
    doc.spans = timeline_.spans(sel.spans);
    for (const auto& c : sel.channels) {
      trace_counter tc{c.name, c.unit, {}};
      if (sel.bucket_ns) {
        for (const auto& b : samples_.buckets(job_, c.id, sel.counters_from_ns, sel.counters_to_ns, *sel.bucket_ns, sel.max_buckets))
          tc.points.emplace_back(b.t_ns, b.mean);
      } else {
        for (const auto& s : samples_.query(job_, c.id, sel.counters_from_ns, sel.counters_to_ns)) tc.points.emplace_back(s.t_ns, s.value);
      }
      if (!tc.points.empty()) doc.counters.push_back(std::move(tc));
    }
    return chrome_trace_json(doc);
  }

  static std::string drain(body_source& source, std::vector<std::size_t>* sizes = nullptr) {
    std::string all;
    for (int pieces = 0; pieces < 100000; ++pieces) {
      std::string piece;
      const bool more = source.next(piece);
      if (sizes) sizes->push_back(piece.size());
      all += piece;
      if (!more) return all;
    }
    ADD_FAILURE() << "the stream never ended";
    return all;
  }

  static trace_stream_sizes tiny() {
    trace_stream_sizes s;
    s.spans_per_page = 4;
    s.sample_window_ns = 7 * k_us;
    s.events_per_step = 3;
    s.piece_bytes = 500;
    return s;
  }

  store::database db_{":memory:"};
  store::timeline_store timeline_{db_};
  store::sample_store samples_{db_};
  std::int64_t job_ = 0;
};

TEST_F(chrome_trace_stream_test, pieces_at_every_size_join_into_the_whole_document) {
  const auto sel = selection();
  const auto expected = whole(sel);
  ASSERT_TRUE(json::accept(expected));
  for (const auto& sizes : {tiny(), trace_stream_sizes{}}) {
    chrome_trace_stream stream(timeline_, &samples_, sel, sizes);
    std::vector<std::size_t> pieces;
    EXPECT_EQ(drain(stream, &pieces), expected);
    // Small pieces: each ends once it has reached the size (a step's events past it at most).
    if (sizes.piece_bytes == 500) {
      EXPECT_GT(pieces.size(), 20u);
      for (std::size_t i = 0; i + 1 < pieces.size(); ++i) {
        EXPECT_GE(pieces[i], 500u) << i;
        EXPECT_LT(pieces[i], 500u + 3 * 400u) << i;
      }
    }
  }
  const auto j = json::parse(expected);
  std::map<std::string, int> counters;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "C") ++counters[e["name"].get<std::string>()];
  // 3..95 us: 93 samples a channel, and the power channel's nine doubled ones.
  EXPECT_EQ(counters, (std::map<std::string, int>{{"rail.VDD_CPU (W)", 93 + 9}, {"clock.gpu (Hz)", 93}}));
}

TEST_F(chrome_trace_stream_test, buckets_limit_cut_and_a_first_page_give_the_same_text_too) {
  auto buckets = selection();
  buckets.bucket_ns = 6 * k_us;
  {
    chrome_trace_stream stream(timeline_, &samples_, buckets, tiny());
    EXPECT_EQ(drain(stream), whole(buckets));
  }
  // The limit holds back spans a running job adds while the trace streams.
  auto limited = selection();
  limited.spans.limit = 5;
  limited.tracks = store::outline_of(timeline_.spans(limited.spans)).tracks;
  {
    chrome_trace_stream stream(timeline_, &samples_, limited, tiny());
    const auto text = drain(stream);
    EXPECT_EQ(text, whole(limited));
    int spans = 0;
    const auto j = json::parse(text);
    for (const auto& e : j["traceEvents"]) spans += e["ph"] == "X" || e["ph"] == "i";
    EXPECT_EQ(spans, 5);
  }
  auto cut = selection();
  cut.spans.point_index = 2;
  cut.spans.from_ns = 20 * k_us;
  cut.spans.to_ns = 60 * k_us;
  cut.tracks = timeline_.outline(cut.spans).tracks;
  cut.channels = {cut.channels.at(1)};
  {
    chrome_trace_stream stream(timeline_, &samples_, cut, tiny());
    EXPECT_EQ(drain(stream), whole(cut));
  }
  // The route reads a first page to outline a small export; the stream starts after it.
  auto paged = selection();
  const auto first = timeline_.spans_page(paged.spans, std::nullopt, 7);
  ASSERT_TRUE(first.next_after);
  paged.first_page = first;
  {
    chrome_trace_stream stream(timeline_, &samples_, paged, tiny());
    EXPECT_EQ(drain(stream), whole(selection()));
  }
}

TEST_F(chrome_trace_stream_test, no_sample_store_or_an_empty_window_gives_spans_alone) {
  auto sel = selection();
  chrome_trace_stream without(timeline_, nullptr, sel, tiny());
  sel.channels.clear();
  const auto spans_only = whole(sel);
  EXPECT_EQ(drain(without), spans_only);
  auto empty = selection();
  empty.counters_from_ns = 10;
  empty.counters_to_ns = 9;
  chrome_trace_stream none(timeline_, &samples_, empty, tiny());
  EXPECT_EQ(drain(none), spans_only);
}

}  // namespace
}  // namespace jetperf::api
