// sample_store: the channel registry, chunked inserts, queries and means across chunk edges
// (checked against brute force over the same samples), history pruning and durability.
#include <jetperf/store/sample_store.hpp>

#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/detail/sample_chunk.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::store {
namespace {

std::int64_t count_chunks(database& db, std::int64_t job_id) {
  statement st(db.handle(), "SELECT COUNT(*) FROM sample_chunks WHERE job_id = ?");
  st.bind(1, job_id);
  return st.step() ? st.column_int(0) : -1;
}

std::vector<sample_row> filter(const std::vector<sample_row>& all, std::int64_t channel, std::int64_t from,
                               std::int64_t to) {
  std::vector<sample_row> out;
  for (const auto& r : all)
    if (r.channel_id == channel && r.t_ns >= from && r.t_ns <= to) out.push_back(r);
  return out;
}

void expect_same(const std::vector<sample_row>& got, const std::vector<sample_row>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].channel_id, want[i].channel_id) << i;
    EXPECT_EQ(got[i].t_ns, want[i].t_ns) << i;
    EXPECT_EQ(got[i].value, want[i].value) << i;
  }
}

class sample_store_test : public ::testing::Test {
 protected:
  database db_{":memory:"};
  sample_store samples_{db_};
};

TEST_F(sample_store_test, channel_registry_is_idempotent) {
  const auto gpu = samples_.channel_id("rail.VDD_GPU_SOC.power", "W", "sim");
  const auto cpu = samples_.channel_id("temp.CPU", "C", "sysfs");
  EXPECT_NE(gpu, cpu);
  EXPECT_EQ(samples_.channel_id("rail.VDD_GPU_SOC.power", "W", "sim"), gpu);
  // A new provenance updates the channel but keeps its id.
  EXPECT_EQ(samples_.channel_id("rail.VDD_GPU_SOC.power", "W", "/sys/bus/i2c/ina3221"), gpu);
  const auto all = samples_.channels();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, gpu);
  EXPECT_EQ(all[0].name, "rail.VDD_GPU_SOC.power");
  EXPECT_EQ(all[0].source, "/sys/bus/i2c/ina3221");
  EXPECT_EQ(all[1].unit, "C");
  const auto found = samples_.find_channel("temp.CPU");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, cpu);
  EXPECT_EQ(found->source, "sysfs");
  EXPECT_FALSE(samples_.find_channel("temp.GPU"));
  EXPECT_THROW(samples_.channel_id("", "W", "sim"), validation_error);
}

TEST_F(sample_store_test, query_filters_by_job_channel_and_time_across_chunk_edges) {
  const auto a = samples_.channel_id("a", "W", "sim");
  const auto b = samples_.channel_id("b", "Hz", "sim");
  std::vector<sample_row> all;
  // Three batches of 10 samples per channel, 1 ms apart: chunk edges at t = 9/10 and 19/20 ms.
  for (int batch = 0; batch < 3; ++batch) {
    std::vector<sample_row> rows;
    for (int i = 0; i < 10; ++i) {
      const std::int64_t t = (batch * 10 + i) * 1000000LL;
      // Interleaved as a sampler would push them.
      rows.push_back({a, t, batch * 10 + i + 0.5});
      rows.push_back({b, t + 1, -(batch * 10 + i) * 2.0});
    }
    samples_.insert(5, rows);
    all.insert(all.end(), rows.begin(), rows.end());
  }
  samples_.insert(6, {{a, 0, 99.0}});
  samples_.insert(0, {{a, 1, 77.0}});
  EXPECT_EQ(count_chunks(db_, 5), 6);  // one per channel per batch

  const auto everything = samples_.query(5);
  ASSERT_EQ(everything.size(), 60u);
  for (std::size_t i = 1; i < everything.size(); ++i) EXPECT_LE(everything[i - 1].t_ns, everything[i].t_ns);

  expect_same(samples_.query(5, a), filter(all, a, 0, INT64_MAX));
  expect_same(samples_.query(5, b), filter(all, b, 0, INT64_MAX));
  // Windows whose bounds fall on, just inside and just outside chunk edges; bounds are inclusive.
  const std::int64_t ms = 1000000;
  for (auto [from, to] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {9 * ms, 10 * ms}, {9 * ms + 1, 20 * ms - 1}, {5 * ms, 25 * ms}, {10 * ms, 19 * ms},
           {0, 0}, {29 * ms, 40 * ms}, {30 * ms, 40 * ms}, {-5, 3 * ms}}) {
    SCOPED_TRACE(std::to_string(from) + ".." + std::to_string(to));
    expect_same(samples_.query(5, a, from, to), filter(all, a, from, to));
    expect_same(samples_.query(5, b, from, to), filter(all, b, from, to));
  }
  // Only a lower or only an upper bound.
  expect_same(samples_.query(5, a, 15 * ms), filter(all, a, 15 * ms, INT64_MAX));
  expect_same(samples_.query(5, a, std::nullopt, 15 * ms), filter(all, a, INT64_MIN, 15 * ms));
  EXPECT_EQ(samples_.query(5, std::nullopt, 10 * ms, 10 * ms + 1).size(), 2u);
  EXPECT_TRUE(samples_.query(5, a, 20, 10).empty());
  EXPECT_TRUE(samples_.query(7).empty());

  const auto other = samples_.query(6);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].value, 99.0);
  ASSERT_EQ(samples_.query(0).size(), 1u);
  EXPECT_EQ(samples_.query(0)[0].value, 77.0);
}

TEST_F(sample_store_test, unsorted_and_overlapping_batches_come_back_in_time_order) {
  const auto a = samples_.channel_id("a", "W", "sim");
  samples_.insert(1, {{a, 30, 3}, {a, 10, 1}, {a, 50, 5}});
  samples_.insert(1, {{a, 20, 2}, {a, 40, 4}});
  const auto rows = samples_.query(1, a);
  ASSERT_EQ(rows.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(rows[i].t_ns, (i + 1) * 10);
    EXPECT_EQ(rows[i].value, i + 1);
  }
  EXPECT_DOUBLE_EQ(*samples_.mean(1, a, 15, 45), 3.0);
}

TEST_F(sample_store_test, large_batch_is_split_into_bounded_chunks) {
  const auto a = samples_.channel_id("a", "W", "sim");
  std::vector<sample_row> rows;
  for (int i = 0; i < 10000; ++i) rows.push_back({a, i, static_cast<double>(i)});
  samples_.insert(2, rows);
  EXPECT_EQ(count_chunks(db_, 2), 3);  // 4096 + 4096 + 1808
  expect_same(samples_.query(2, a), rows);
  EXPECT_DOUBLE_EQ(*samples_.mean(2, a, 0, 9999), 4999.5);
  EXPECT_DOUBLE_EQ(*samples_.mean(2, a, 4000, 4200), 4100.0);
}

TEST_F(sample_store_test, mean_matches_brute_force) {
  const auto a = samples_.channel_id("a", "W", "sim");
  const auto b = samples_.channel_id("b", "W", "sim");
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> value(0.5, 20.0);
  std::uniform_int_distribution<int> batch_size(1, 300);
  std::vector<sample_row> all;
  std::int64_t t = 1000;
  while (all.size() < 20000) {
    std::vector<sample_row> rows;
    const int n = batch_size(rng);
    for (int i = 0; i < n; ++i) {
      t += 1 + static_cast<std::int64_t>(rng() % 2000);
      rows.push_back({a, t, value(rng)});
      rows.push_back({b, t, 1000 + value(rng)});
    }
    samples_.insert(3, rows);
    all.insert(all.end(), rows.begin(), rows.end());
  }
  std::uniform_int_distribution<std::int64_t> when(0, t + 1000);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::int64_t from = when(rng), to = when(rng);
    // Half the windows end exactly on samples, where an off-by-one in the bounds would show.
    if (trial % 2) {
      from = all[static_cast<std::size_t>(rng() % all.size())].t_ns;
      to = all[static_cast<std::size_t>(rng() % all.size())].t_ns;
    }
    if (from > to) std::swap(from, to);
    const auto want = filter(all, a, from, to);
    const auto got = samples_.mean(3, a, from, to);
    if (want.empty()) {
      EXPECT_FALSE(got) << from << ".." << to;
      continue;
    }
    double sum = 0;
    for (const auto& r : want) sum += r.value;
    ASSERT_TRUE(got) << from << ".." << to;
    EXPECT_NEAR(*got, sum / want.size(), 1e-9 * std::abs(sum / want.size())) << from << ".." << to;
    ++checked;
  }
  EXPECT_GT(checked, 150);
  EXPECT_FALSE(samples_.mean(3, a, 0, 999));
  EXPECT_FALSE(samples_.mean(3, a, 50, 10));
  EXPECT_FALSE(samples_.mean(4, a, 0, t));
}

TEST_F(sample_store_test, prune_history_removes_old_history_only) {
  const auto a = samples_.channel_id("a", "W", "sim");
  const auto b = samples_.channel_id("b", "W", "sim");
  std::vector<sample_row> history;
  for (int batch = 0; batch < 5; ++batch) {
    std::vector<sample_row> rows;
    for (int i = 0; i < 100; ++i) {
      const std::int64_t t = batch * 100 + i;
      rows.push_back({a, t, static_cast<double>(t)});
      rows.push_back({b, t, 2.0 * t});
    }
    samples_.insert(0, rows);
    history.insert(history.end(), rows.begin(), rows.end());
  }
  std::vector<sample_row> job_rows;
  for (int i = 0; i < 50; ++i) job_rows.push_back({a, i, 1.0});
  samples_.insert(9, job_rows);

  // The cut at 250 falls inside the third batch's chunks.
  EXPECT_EQ(samples_.prune_history(250), 2 * 250);
  expect_same(samples_.query(0, a), filter(history, a, 250, INT64_MAX));
  expect_same(samples_.query(0, b), filter(history, b, 250, INT64_MAX));
  EXPECT_DOUBLE_EQ(*samples_.mean(0, a, 0, 1000), (250 + 499) / 2.0);
  EXPECT_DOUBLE_EQ(*samples_.mean(0, a, 250, 299), (250 + 299) / 2.0);
  EXPECT_EQ(samples_.query(9).size(), 50u);
  EXPECT_EQ(samples_.prune_history(250), 0);
  EXPECT_EQ(samples_.prune_history(1000), 2 * 250);
  EXPECT_TRUE(samples_.query(0).empty());
  EXPECT_EQ(count_chunks(db_, 0), 0);
  EXPECT_EQ(samples_.query(9).size(), 50u);
}

TEST_F(sample_store_test, bad_samples_are_refused_whole) {
  const auto a = samples_.channel_id("a", "W", "sim");
  EXPECT_THROW(samples_.insert(1, {{a, 1, 1.0}, {a, 2, std::nan("")}}), validation_error);
  EXPECT_THROW(samples_.insert(1, {{a, 1, std::numeric_limits<double>::infinity()}}), validation_error);
  // An unknown channel breaks the foreign key; the batch's other chunks are rolled back too.
  EXPECT_THROW(samples_.insert(1, {{a, 1, 1.0}, {a + 100, 2, 2.0}}), store_error);
  EXPECT_TRUE(samples_.query(1).empty());
  samples_.insert(1, {});
  EXPECT_EQ(count_chunks(db_, 1), 0);
}

TEST(sample_store_file, reopened_database_keeps_samples) {
  test::temp_dir dir;
  const std::string path = dir.file("samples.db");
  std::int64_t a = 0;
  {
    database db(path);
    sample_store s(db);
    a = s.channel_id("rail.VDD_IN.power", "W", "sim");
    s.insert(4, {{a, 10, 4.5}, {a, 20, 5.5}});
  }
  database db(path);
  sample_store s(db);
  EXPECT_EQ(s.channel_id("rail.VDD_IN.power", "W", "sim"), a);
  const auto rows = s.query(4, a);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].value, 5.5);
  EXPECT_DOUBLE_EQ(*s.mean(4, a, 0, 100), 5.0);
}

TEST(sample_chunk, layout_is_little_endian) {
  std::vector<unsigned char> blob;
  detail::append_sample(blob, 0x0102030405060708LL, 2.0);
  ASSERT_EQ(blob.size(), detail::k_sample_bytes);
  const unsigned char want[16] = {8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0x40};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(blob[i], want[i]) << i;
  detail::append_sample(blob, -5, -0.25);
  std::vector<std::pair<std::int64_t, double>> back;
  detail::for_each_sample(blob.data(), 2, [&](std::int64_t t, double v) { back.emplace_back(t, v); });
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].first, 0x0102030405060708LL);
  EXPECT_EQ(back[0].second, 2.0);
  EXPECT_EQ(back[1].first, -5);
  EXPECT_EQ(back[1].second, -0.25);
}

}  // namespace
}  // namespace jetperf::store
