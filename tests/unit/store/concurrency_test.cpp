// The daemon's threads (sampler flushes, job runner, API readers) share one connection behind
// the database's mutex; interleaved writers and readers must neither fail nor lose rows.
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/store/job_store.hpp>
#include <jetperf/store/sample_store.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::store {
namespace {

TEST(store_concurrency, threads_share_one_connection) {
  test::temp_dir dir;
  database db(dir.file("shared.db"));
  sample_store samples(db);
  job_store jobs(db);
  const auto ch = samples.channel_id("rail.VDD_IN.power", "W", "sim");
  constexpr int k_threads = 4, k_batches = 50, k_per_batch = 20;
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      for (int b = 0; b < k_batches; ++b) {
        std::vector<sample_row> rows;
        for (int i = 0; i < k_per_batch; ++i) rows.push_back({ch, (b * k_per_batch + i) * 10 + t, 1.0 + t});
        samples.insert(100 + t, rows);
        const auto id = jobs.insert("idle", {{"thread", t}}, {"t" + std::to_string(t)}, 1, 1);
        jobs.add_event(id, "log", {{"b", b}});
        (void)samples.mean(100 + t, ch, 0, 1 << 30);
        (void)jobs.list(job_filter{});
      }
    });
  }
  for (auto& th : threads) th.join();
  std::int64_t total = 0;
  jobs.list(job_filter{}, &total);
  EXPECT_EQ(total, k_threads * k_batches);
  for (int t = 0; t < k_threads; ++t) {
    EXPECT_EQ(samples.query(100 + t, ch).size(), static_cast<std::size_t>(k_batches * k_per_batch));
    EXPECT_DOUBLE_EQ(*samples.mean(100 + t, ch, 0, 1 << 30), 1.0 + t);
  }
}

}  // namespace
}  // namespace jetperf::store
