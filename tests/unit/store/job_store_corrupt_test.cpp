// A job row damaged behind the store's back (raw SQL here) is listed as unreadable, saying what
// cannot be read, without hiding the other jobs; reading it alone throws corrupt_record.
#include <jetperf/store/job_store.hpp>

#include <memory>
#include <sstream>

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {
namespace {

using nlohmann::json;

// spdlog's default logger writes into `text` while this lives.
class captured_log {
 public:
  captured_log() : previous_(spdlog::default_logger()) {
    spdlog::set_default_logger(
        std::make_shared<spdlog::logger>("captured", std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)));
  }
  ~captured_log() { spdlog::set_default_logger(previous_); }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::logger> previous_;
};

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class job_store_corrupt_test : public ::testing::Test {
 protected:
  void damage(std::int64_t id, const std::string& assignment) {
    db_.exec("UPDATE jobs SET " + assignment + " WHERE id = " + std::to_string(id));
  }

  database db_{":memory:"};
  job_store jobs_{db_};
};

TEST_F(job_store_corrupt_test, a_damaged_row_is_listed_as_unreadable_and_the_others_as_they_are) {
  const auto good = jobs_.insert("idle", {{"duration_s", 1}}, {"keep"}, 3, 4.5);
  const auto bad_spec = jobs_.insert("gemm", {{"sizes", {64}}}, {"keep"}, 2, 1.0);
  const auto bad_state = jobs_.insert("idle", json::object(), {}, 1, 1.0);
  damage(bad_spec, "spec_json = '{not json'");
  damage(bad_state, "state = 'exploded', summary_json = '[1, 2]'");

  std::int64_t total = 0;
  const auto listed = jobs_.list(job_filter{}, &total);
  EXPECT_EQ(total, 3);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].id, bad_state);
  EXPECT_EQ(listed[0].unreadable, "unknown state 'exploded'; summary_json is not a JSON object (array)");
  EXPECT_EQ(listed[0].summary, json::object());
  EXPECT_EQ(listed[1].id, bad_spec);
  EXPECT_EQ(listed[1].unreadable, "spec_json is not valid JSON");
  // What could be read is kept.
  EXPECT_EQ(listed[1].kind, "gemm");
  EXPECT_EQ(listed[1].spec, json::object());
  EXPECT_EQ(listed[1].points_total, 2);
  EXPECT_EQ(listed[1].tags, std::vector<std::string>{"keep"});
  EXPECT_EQ(listed[2].id, good);
  EXPECT_EQ(listed[2].unreadable, "");
  EXPECT_EQ(listed[2].spec, json({{"duration_s", 1}}));

  job_filter tagged;
  tagged.tag = "keep";
  EXPECT_EQ(jobs_.list(tagged).size(), 2u);
}

TEST_F(job_store_corrupt_test, a_damaged_row_is_logged_once_however_often_it_is_listed) {
  const auto id = jobs_.insert("idle", json::object(), {}, 1, 1.0);
  damage(id, "state = 'exploded'");
  captured_log log;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(jobs_.list(job_filter{}).at(0).unreadable, "unknown state 'exploded'");
  EXPECT_EQ(count_of(log.text(), "job " + std::to_string(id) + " is stored damaged and is listed as unreadable: "
                                                               "unknown state 'exploded'"),
            1u)
      << log.text();
}

TEST_F(job_store_corrupt_test, reading_a_damaged_job_alone_names_the_id_and_what_is_wrong) {
  const auto id = jobs_.insert("idle", json::object(), {}, 1, 1.0);
  damage(id, "provenance_json = ''");
  try {
    jobs_.get(id);
    FAIL() << "a damaged row was read as whole";
  } catch (const corrupt_record& e) {
    EXPECT_EQ(e.code(), "corrupt_job");
    EXPECT_EQ(e.field(), "id");
    EXPECT_EQ(std::string(e.what()), "job " + std::to_string(id) +
                                         " is stored damaged and cannot be read: provenance_json is not valid JSON");
  }
  // A spec that is JSON but not an object is damaged too: every reader expects an object.
  const auto other = jobs_.insert("idle", json::object(), {}, 1, 1.0);
  damage(other, "spec_json = '5'");
  EXPECT_THROW(jobs_.get(other), corrupt_record);
  EXPECT_FALSE(jobs_.get(other + 1));
}

}  // namespace
}  // namespace jetperf::store
