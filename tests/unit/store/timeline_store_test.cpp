// timeline_store: spans in pages (by start time, then the order they were added, whatever the
// page size), and the outline of a query (count, extent, tracks in order of their first span)
// from one pass, as outline_of gives it for spans already read.
#include <jetperf/store/timeline_store.hpp>

#include <gtest/gtest.h>

#include <jetperf/store/job_store.hpp>

namespace jetperf::store {
namespace {

using nlohmann::json;

class timeline_store_test : public ::testing::Test {
 protected:
  timeline_store_test() {
    job_store jobs(db_);
    job_ = jobs.insert("idle", json::object(), {}, 1, 1.0);
    other_ = jobs.insert("idle", json::object(), {}, 1, 1.0);
    // Equal starts on purpose: "late" and "zeta" first start at 30, "zeta" added first.
    timeline_.add({{job_, 0, "phases", "a", 10, 20, json::object()},
                   {job_, 0, "markers", "b", 10, 10, {{"i", 1}}},
                   {job_, 1, "zeta", "c", 30, 35, json::object()},
                   {job_, 1, "late", "d", 30, 31, json::object()},
                   {job_, std::nullopt, "phases", "e", 30, 90, json::object()},
                   {job_, 1, "markers", "f", 40, 40, json::object()},
                   {other_, 0, "phases", "x", 0, 1000, json::object()}});
  }

  std::vector<std::string> names(const std::vector<timeline_span>& spans) {
    std::vector<std::string> out;
    for (const auto& s : spans) out.push_back(s.name);
    return out;
  }

  database db_{":memory:"};
  timeline_store timeline_{db_};
  std::int64_t job_ = 0, other_ = 0;
};

TEST_F(timeline_store_test, pages_of_any_size_give_the_spans_in_order_once) {
  timeline_query q;
  q.job_id = job_;
  const auto all = names(timeline_.spans(q));
  ASSERT_EQ(all, (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  for (std::size_t size = 1; size <= 7; ++size) {
    std::vector<std::string> paged;
    std::optional<timeline_key> after;
    int pages = 0;
    do {
      const auto page = timeline_.spans_page(q, after, size);
      EXPECT_LE(page.spans.size(), size);
      for (const auto& n : names(page.spans)) paged.push_back(n);
      after = page.next_after;
      ++pages;
    } while (after && pages < 10);
    EXPECT_EQ(paged, all) << "page size " << size;
    // The last page says nothing follows, even when it is full.
    EXPECT_EQ(pages, static_cast<int>((all.size() + size - 1) / size)) << "page size " << size;
  }
  EXPECT_TRUE(timeline_.spans_page(q, std::nullopt, 0).spans.empty());
}

TEST_F(timeline_store_test, removing_from_a_point_keeps_earlier_points_the_jobs_own_spans_and_other_jobs) {
  EXPECT_EQ(timeline_.remove_from_point(job_, 1), 3);
  timeline_query q;
  q.job_id = job_;
  EXPECT_EQ(names(timeline_.spans(q)), (std::vector<std::string>{"a", "b", "e"}));
  q.job_id = other_;
  EXPECT_EQ(names(timeline_.spans(q)), (std::vector<std::string>{"x"}));
  EXPECT_EQ(timeline_.remove_from_point(job_, 5), 0);
}

TEST_F(timeline_store_test, a_page_keeps_the_query_and_reads_the_span_whole) {
  timeline_query q;
  q.job_id = job_;
  q.point_index = 1;
  const auto page = timeline_.spans_page(q, std::nullopt, 2);
  ASSERT_EQ(names(page.spans), (std::vector<std::string>{"c", "d"}));
  ASSERT_TRUE(page.next_after);
  const auto rest = timeline_.spans_page(q, page.next_after, 2);
  ASSERT_EQ(names(rest.spans), (std::vector<std::string>{"f"}));
  EXPECT_FALSE(rest.next_after);
  const auto& f = rest.spans[0];
  EXPECT_EQ(f.job_id, job_);
  EXPECT_EQ(f.point_index, 1);
  EXPECT_EQ(f.track, "markers");
  EXPECT_EQ(f.t_start_ns, 40);
  EXPECT_EQ(f.t_end_ns, 40);
}

TEST_F(timeline_store_test, the_outline_counts_bounds_and_orders_the_tracks_by_first_span) {
  timeline_query q;
  q.job_id = job_;
  const auto o = timeline_.outline(q);
  EXPECT_EQ(o.spans, 6);
  EXPECT_EQ(o.first_start_ns, 10);
  EXPECT_EQ(o.last_end_ns, 90);
  // "zeta" and "late" both start at 30: the one added first comes first.
  EXPECT_EQ(o.tracks, (std::vector<std::string>{"phases", "markers", "zeta", "late"}));
  const auto read = outline_of(timeline_.spans(q));
  EXPECT_EQ(read.spans, o.spans);
  EXPECT_EQ(read.first_start_ns, o.first_start_ns);
  EXPECT_EQ(read.last_end_ns, o.last_end_ns);
  EXPECT_EQ(read.tracks, o.tracks);

  q.from_ns = 35;
  q.to_ns = 40;
  const auto cut = timeline_.outline(q);
  EXPECT_EQ(cut.spans, 3);  // c (ends at 35), e and f
  EXPECT_EQ(cut.first_start_ns, 30);
  EXPECT_EQ(cut.last_end_ns, 90);
  EXPECT_EQ(cut.tracks, (std::vector<std::string>{"zeta", "phases", "markers"}));

  timeline_query none;
  none.job_id = 999;
  const auto empty = timeline_.outline(none);
  EXPECT_EQ(empty.spans, 0);
  EXPECT_TRUE(empty.tracks.empty());
}

}  // namespace
}  // namespace jetperf::store
