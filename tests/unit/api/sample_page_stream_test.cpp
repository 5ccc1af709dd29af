// sample_page_stream: a page written a part at a time says exactly what one read of the store
// says (its samples, its cursor), whatever the part and piece sizes; a page without a limit
// ends at its size in bytes; CSV keeps its line format.
#include <jetperf/api/sample_page_stream.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace jetperf::api {
namespace {

class sample_page_stream_test : public ::testing::Test {
 protected:
  void SetUp() override {
    power_ = samples_.channel_id("power.total", "W", "sim");
    gpu_ = samples_.channel_id("clock.\"gpu\"", "Hz", "sysfs");  // a name JSON must escape
    samples_.channel_id("temp.CPU", "C", "sysfs");               // a channel the job never wrote
    // 2 x 5000 samples in inserts whose chunks interleave in time.
    for (int batch = 0; batch < 10; ++batch) {
      std::vector<store::sample_row> rows;
      for (int i = 0; i < 500; ++i) {
        const std::int64_t t = 1000 + 10 * (batch * 500 + i);
        rows.push_back({power_, t, 0.5 * t});
        rows.push_back({gpu_, t, 2.0 * t});
      }
      samples_.insert(1, rows);
    }
  }

  static std::string drain(sample_page_stream& s, std::size_t* pieces = nullptr) {
    std::string text, piece;
    for (bool more = true; more;) {
      piece.clear();
      more = s.next(piece);
      text += piece;
      if (pieces) ++*pieces;
    }
    return text;
  }

  sample_page_request page(std::size_t limit, std::optional<store::sample_key> after = std::nullopt) const {
    sample_page_request r;
    r.job_id = 1;
    r.limit = limit;
    r.after = after;
    return r;
  }

  store::database db_{":memory:"};
  store::sample_store samples_{db_};
  std::int64_t power_ = 0, gpu_ = 0;
};

TEST_F(sample_page_stream_test, small_parts_and_pieces_page_through_every_sample_once_in_order) {
  const sample_page_sizes tiny{/*rows_per_read=*/7, /*piece_bytes=*/100};
  std::optional<store::sample_key> after;
  std::vector<nlohmann::json> all;
  int pages = 0;
  for (; pages < 100; ++pages) {
    sample_page_stream s(samples_, samples_.channels(), page(3333, after), tiny);
    std::size_t pieces = 0;
    const auto j = nlohmann::json::parse(drain(s, &pieces));
    EXPECT_EQ(j["job_id"], 1);
    if (j["samples"].size() > 1) {
      EXPECT_GT(pieces, 100u);  // it did come in pieces
      // The channels the page named, with their units; not the one it never wrote.
      ASSERT_EQ(j["channels"].size(), 2u) << j["channels"];
      EXPECT_EQ(j["channels"][0], (nlohmann::json{{"name", "power.total"}, {"unit", "W"}, {"source", "sim"}}));
      EXPECT_EQ(j["channels"][1]["name"], "clock.\"gpu\"");
    }
    ASSERT_LE(j["samples"].size(), 3333u);
    for (auto& x : j["samples"]) all.push_back(x);
    // The cursor as the store's own page of the same size gives it.
    const auto whole = samples_.query_page(1, std::nullopt, std::nullopt, std::nullopt, after, 3333);
    ASSERT_EQ(j["samples"].size(), whole.rows.size());
    if (!whole.next_after) {
      EXPECT_TRUE(j["next_after"].is_null());
      break;
    }
    EXPECT_EQ(j["next_after"], sample_page_stream::cursor_text(*whole.next_after));
    EXPECT_EQ(s.next_after()->t_ns, whole.next_after->t_ns);
    after = whole.next_after;
  }
  EXPECT_EQ(pages, 3);  // 10 000 samples, 3333 a page: the fourth has 1
  ASSERT_EQ(all.size(), 10000u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::int64_t t = 1000 + 10 * static_cast<std::int64_t>(i / 2);
    ASSERT_EQ(all[i]["t_ns"], t) << i;
    ASSERT_EQ(all[i]["channel"], i % 2 ? "clock.\"gpu\"" : "power.total") << i;
    ASSERT_EQ(all[i]["value"], i % 2 ? 2.0 * t : 0.5 * t) << i;
  }
}

TEST_F(sample_page_stream_test, a_page_that_takes_every_sample_left_has_no_cursor) {
  sample_page_stream s(samples_, samples_.channels(), page(10000));
  const auto j = nlohmann::json::parse(drain(s));
  EXPECT_EQ(j["samples"].size(), 10000u);
  EXPECT_TRUE(j["next_after"].is_null());
  EXPECT_FALSE(s.next_after());
}

TEST_F(sample_page_stream_test, without_a_limit_a_page_ends_at_its_size_in_bytes) {
  auto r = page(100000);
  r.max_bytes = 20000;
  sample_page_stream s(samples_, samples_.channels(), r, {/*rows_per_read=*/64, /*piece_bytes=*/1000});
  const auto text = drain(s);
  const auto j = nlohmann::json::parse(text);
  const auto n = j["samples"].size();
  // Each sample is about 50 bytes of text: the page stops at the first past 20 000.
  EXPECT_GT(n, 300u);
  EXPECT_LT(n, 500u);
  EXPECT_LE(j["samples"].dump().size(), 20000u + 100u);
  EXPECT_GE(j["samples"].dump().size(), 20000u);
  // And the next page starts right after its last sample.
  const auto& last = j["samples"][n - 1];
  const auto id = last["channel"] == "power.total" ? power_ : gpu_;
  EXPECT_EQ(j["next_after"], std::to_string(last["t_ns"].get<std::int64_t>()) + ":" + std::to_string(id));
}

TEST_F(sample_page_stream_test, csv_lines_and_the_cursor_once_drained) {
  auto r = page(3);
  r.csv = true;
  r.channel_id = gpu_;
  r.from_ns = 1010;
  sample_page_stream s(samples_, samples_.channels(), r);
  EXPECT_EQ(drain(s), "channel,t_ns,value\r\n\"clock.\"\"gpu\"\"\",1010,2020.0\r\n\"clock.\"\"gpu\"\"\",1020,2040.0\r\n"
                      "\"clock.\"\"gpu\"\"\",1030,2060.0\r\n");
  ASSERT_TRUE(s.next_after());
  EXPECT_EQ(sample_page_stream::cursor_text(*s.next_after()), "1030:" + std::to_string(gpu_));
}

TEST_F(sample_page_stream_test, an_empty_window_is_an_empty_page_naming_the_channel_asked_for) {
  auto r = page(100);
  r.channel_id = power_;
  r.from_ns = 10'000'000;
  sample_page_stream s(samples_, samples_.channels(), r);
  const auto j = nlohmann::json::parse(drain(s));
  EXPECT_TRUE(j["samples"].empty());
  ASSERT_EQ(j["channels"].size(), 1u);
  EXPECT_EQ(j["channels"][0]["name"], "power.total");
  EXPECT_TRUE(j["next_after"].is_null());
}

}  // namespace
}  // namespace jetperf::api
