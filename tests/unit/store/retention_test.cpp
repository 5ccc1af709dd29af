// Retention in the store: downsampling keeps each second's minimum, mean, maximum and count
// exactly as the full-rate samples gave them; dropping removes a job's samples and their seconds;
// a pass picks jobs by age, state and pin; a new database gives freed pages back.
#include <jetperf/store/retention_pass.hpp>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>

namespace jetperf::store {
namespace {

constexpr std::int64_t k_day_ns = 86'400'000'000'000;
constexpr std::int64_t k_now = 400 * k_day_ns;

std::int64_t count_of(database& db, const std::string& sql) {
  statement st(db.handle(), sql);
  return st.step() ? st.column_int(0) : -1;
}

class retention_test : public ::testing::Test {
 protected:
  std::int64_t add_job(const std::string& state, std::int64_t finished_ns) {
    statement st(db_.handle(),
                 "INSERT INTO jobs (kind, state, spec_json, created_ns, finished_ns) VALUES ('idle', ?, '{}', 1, ?)");
    st.bind(1, state).bind(2, finished_ns);
    st.run();
    return db_.last_insert_id();
  }
  // 3.5 s at 1 kHz on two channels: power = ms within its second (0..999), clock = 1e9 flat.
  void add_samples(std::int64_t job) {
    std::vector<sample_row> rows;
    for (std::int64_t ms = 0; ms < 3500; ++ms) {
      rows.push_back({power_, ms * 1'000'000, static_cast<double>(ms % 1000)});
      rows.push_back({clock_, ms * 1'000'000, 1e9});
    }
    samples_.insert(job, rows);
  }

  database db_{":memory:"};
  sample_store samples_{db_};
  retention_store retention_{db_};
  std::int64_t power_ = samples_.channel_id("power.total", "W", "sim");
  std::int64_t clock_ = samples_.channel_id("clock.gpu", "Hz", "sim");
};

TEST_F(retention_test, downsampling_keeps_every_seconds_min_mean_max_and_count) {
  const auto job = add_job("succeeded", 1);
  add_samples(job);
  const auto before = samples_.buckets(job, std::nullopt, std::nullopt, std::nullopt, 1'000'000'000, 100);
  ASSERT_EQ(before.size(), 8u);  // 4 seconds x 2 channels
  const auto d = samples_.downsample_job(job);
  EXPECT_EQ(d.samples, 7000);
  EXPECT_EQ(d.seconds, 8);
  // Readers of samples see one record per second: its start and its mean.
  const auto rows = samples_.query(job, power_);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1].t_ns, 1'000'000'000);
  EXPECT_DOUBLE_EQ(rows[1].value, 499.5);
  EXPECT_DOUBLE_EQ(rows[3].value, 249.5);  // the last half second: 0..499
  // Buckets of a second or more read the seconds' extents: the same answer as before.
  const auto after = samples_.buckets(job, std::nullopt, std::nullopt, std::nullopt, 1'000'000'000, 100);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].channel_id, before[i].channel_id) << i;
    EXPECT_EQ(after[i].t_ns, before[i].t_ns) << i;
    EXPECT_DOUBLE_EQ(after[i].min, before[i].min) << i;
    EXPECT_DOUBLE_EQ(after[i].max, before[i].max) << i;
    EXPECT_DOUBLE_EQ(after[i].mean, before[i].mean) << i;
    EXPECT_EQ(after[i].count, before[i].count) << i;
  }
  const auto two_s = samples_.buckets(job, power_, std::nullopt, std::nullopt, 2'000'000'000, 100);
  ASSERT_EQ(two_s.size(), 2u);
  EXPECT_EQ(two_s[1].count, 1500);
  EXPECT_DOUBLE_EQ(two_s[1].mean, (499.5 * 1000 + 249.5 * 500) / 1500);
  EXPECT_DOUBLE_EQ(two_s[1].max, 999);
  // A second run finds nothing left at full rate (a pass cut short resumes where it was).
  EXPECT_EQ(samples_.downsample_job(job).samples, 0);
  EXPECT_EQ(samples_.query(job).size(), 8u);
}

TEST_F(retention_test, dropping_removes_the_samples_and_their_seconds) {
  const auto job = add_job("succeeded", 1);
  const auto other = add_job("succeeded", 1);
  add_samples(job);
  add_samples(other);
  samples_.downsample_job(job);
  ASSERT_EQ(count_of(db_, "SELECT count(*) FROM sample_chunk_seconds"), 2);
  EXPECT_EQ(samples_.drop_job(job, 1), 8);  // one chunk per transaction
  EXPECT_TRUE(samples_.query(job).empty());
  EXPECT_EQ(count_of(db_, "SELECT count(*) FROM sample_chunk_seconds"), 0);
  EXPECT_EQ(samples_.query(other).size(), 7000u);
}

TEST_F(retention_test, a_pass_downsamples_old_jobs_drops_older_ones_and_keeps_pinned_running_and_recent) {
  const auto old = add_job("succeeded", k_now - 2 * k_day_ns);
  const auto older = add_job("failed", k_now - 20 * k_day_ns);
  const auto pinned = add_job("succeeded", k_now - 20 * k_day_ns);
  const auto recent = add_job("succeeded", k_now - k_day_ns / 24);
  const auto running = add_job("running", 0);
  const auto interrupted = add_job("interrupted", k_now - 20 * k_day_ns);  // may be resumed
  for (const auto j : {old, older, pinned, recent, running, interrupted}) add_samples(j);
  retention_.set_pinned(pinned, true, k_now);

  retention_pass pass(db_, samples_, retention_, {/*full_days=*/1, /*days=*/10});
  const auto out = pass.run(k_now);
  EXPECT_EQ(out.downsampled_jobs, 1);
  EXPECT_EQ(out.dropped_jobs, 1);
  EXPECT_EQ(out.samples_downsampled, 7000);
  EXPECT_EQ(out.seconds_kept, 8);
  EXPECT_EQ(out.samples_dropped, 7000);
  EXPECT_FALSE(out.cut_short);
  EXPECT_EQ(samples_.query(old).size(), 8u);
  EXPECT_EQ(retention_.find(old)->samples, "downsampled");
  EXPECT_TRUE(samples_.query(older).empty());
  EXPECT_EQ(retention_.find(older)->samples, "dropped");
  for (const auto j : {pinned, recent, running, interrupted}) EXPECT_EQ(samples_.query(j).size(), 7000u) << j;
  EXPECT_TRUE(retention_.find(pinned)->pinned);
  EXPECT_EQ(retention_.find(pinned)->samples, "full");
  EXPECT_FALSE(retention_.find(recent));
  // The pinned job is the oldest at full rate.
  EXPECT_EQ(retention_.oldest_full_rate_finish(), k_now - 20 * k_day_ns);

  // Later, the downsampled job ages past retention_days; the unpinned one goes with it.
  retention_.set_pinned(pinned, false, k_now);
  const auto later = pass.run(k_now + 9 * k_day_ns);
  EXPECT_EQ(later.dropped_jobs, 2);  // old (downsampled) and the formerly pinned
  EXPECT_TRUE(samples_.query(old).empty());
  EXPECT_TRUE(samples_.query(pinned).empty());
  EXPECT_EQ(samples_.query(recent).size(), 8u);  // downsampled by now
  EXPECT_EQ(pass.run(k_now + 9 * k_day_ns).dropped_jobs + pass.run(k_now + 9 * k_day_ns).downsampled_jobs, 0);
}

TEST_F(retention_test, a_pass_stops_between_jobs_when_asked) {
  for (int i = 0; i < 3; ++i) add_samples(add_job("succeeded", k_now - 2 * k_day_ns));
  retention_pass pass(db_, samples_, retention_, {1, 10});
  int asked = 0;
  const auto out = pass.run(k_now, [&] { return ++asked > 1; });
  EXPECT_EQ(out.downsampled_jobs, 1);
  EXPECT_TRUE(out.cut_short);
  EXPECT_EQ(pass.run(k_now).downsampled_jobs, 2);
}

TEST(retention_file, a_new_database_gives_freed_pages_back_to_the_file_system) {
  test::temp_dir dir;
  database db(dir.file("jetperf.db"));
  EXPECT_EQ(count_of(db, "PRAGMA auto_vacuum"), 2);  // incremental
  sample_store samples(db);
  retention_store retention(db);
  const auto power = samples.channel_id("power.total", "W", "sim");
  statement job(db.handle(), "INSERT INTO jobs (kind, state, spec_json, created_ns, finished_ns) VALUES ('idle', 'succeeded', '{}', 1, 1)");
  job.run();
  const auto id = db.last_insert_id();
  std::vector<sample_row> rows;
  for (std::int64_t i = 0; i < 200000; ++i) rows.push_back({power, i * 1'000'000, static_cast<double>(i % 7)});
  samples.insert(id, rows);
  const auto pages = count_of(db, "PRAGMA page_count");
  const auto out = retention_pass(db, samples, retention, {1, 10}).run(k_now);
  EXPECT_EQ(out.dropped_jobs, 1);
  EXPECT_GT(out.pages_freed, 500);  // 200 000 samples of 16 bytes: about 800 pages of 4 KiB
  EXPECT_LT(count_of(db, "PRAGMA page_count"), pages - 500);
}

}  // namespace
}  // namespace jetperf::store
