// Sampler batches reach the sample store under the right channel ids and job; NaN is dropped.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <jetperf/common/clock.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/sample_store.hpp>

#include "telemetry_setup.hpp"

namespace jetperf::daemon {
namespace {

TEST(sample_persister, stores_batches_by_channel_and_job) {
  store::database db(":memory:");
  store::sample_store samples(db);
  const std::vector<telemetry::channel_info> channels = {
      {"rail.VDD_IN", "W", telemetry::channel_kind::power, "/sys/x"},
      {"temp.GPU", "C", telemetry::channel_kind::temperature, "/sys/y"}};
  sample_persister persist(samples, channels, /*retention_ns=*/1'000'000'000);
  persist(7, {{0, 100, 5.5}, {1, 100, 41.0}, {0, 200, std::numeric_limits<double>::quiet_NaN()}, {0, 300, 6.5}});
  // History older than the retention (1 s) is pruned; a fresh sample stays.
  const std::int64_t now = monotonic_ns();
  persist(0, {{1, now - 2'000'000'000, 40.0}, {1, now, 42.0}});
  EXPECT_EQ(persist.stored(), 5u);

  const auto rail = samples.find_channel("rail.VDD_IN");
  const auto temp = samples.find_channel("temp.GPU");
  ASSERT_TRUE(rail && temp);
  EXPECT_EQ(rail->unit, "W");
  const auto job = samples.query(7, rail->id);
  ASSERT_EQ(job.size(), 2u);
  EXPECT_EQ(job[0].t_ns, 100);
  EXPECT_DOUBLE_EQ(job[1].value, 6.5);
  EXPECT_EQ(samples.query(7, temp->id).size(), 1u);
  const auto history = samples.query(0);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].channel_id, temp->id);
  EXPECT_EQ(history[0].t_ns, now);
  EXPECT_DOUBLE_EQ(history[0].value, 42.0);
}

}  // namespace
}  // namespace jetperf::daemon

namespace jetperf::daemon {
namespace {

// rail.VDD_IN = k W at tick k (t = k ms).
class tick_sensor final : public telemetry::sensor {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"rail.VDD_IN", "W", telemetry::channel_kind::power, "test"}};
  }
  void read(std::int64_t t_ns, double* v) override { v[0] = static_cast<double>(t_ns / 1'000'000); }
  std::optional<int> total_power_channel() const override { return 0; }
};

TEST(sample_persister, reads_a_jobs_samples_back_with_the_samplers_channel_indexes) {
  store::database db(":memory:");
  store::sample_store samples(db);
  const std::vector<telemetry::channel_info> channels = {
      {"rail.VDD_IN", "W", telemetry::channel_kind::power, "/sys/x"},
      {"temp.GPU", "C", telemetry::channel_kind::temperature, "/sys/y"}};
  // Another channel first, so that store ids and sampler indexes differ.
  samples.channel_id("clock.gpu", "Hz", "/sys/z");
  sample_persister persist(samples, channels, 1'000'000'000);
  persist(7, {{0, 100, 5.5}, {1, 100, 41.0}, {0, 200, 6.0}, {1, 300, 42.0}});
  persist(8, {{0, 150, 9.0}});
  const auto got = persist.read(7, 100, 200);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].channel, 0);
  EXPECT_EQ(got[0].t_ns, 100);
  EXPECT_DOUBLE_EQ(got[0].value, 5.5);
  EXPECT_EQ(got[1].channel, 1);
  EXPECT_DOUBLE_EQ(got[1].value, 41.0);
  EXPECT_EQ(got[2].t_ns, 200);
  EXPECT_EQ(persist.lost_until_ns(7), std::numeric_limits<std::int64_t>::min());
}

TEST(sample_persister, a_batch_it_could_not_store_is_reported_lost) {
  store::database db(":memory:");
  store::sample_store samples(db);
  sample_persister persist(samples, {{"rail.VDD_IN", "W", telemetry::channel_kind::power, "/sys/x"}}, 1'000'000'000);
  persist(7, {{0, 100, 1.0}});
  db.exec("PRAGMA query_only = 1");  // every write now fails, as on a full disk
  persist(7, {{0, 200, 2.0}, {0, 300, 3.0}});
  db.exec("PRAGMA query_only = 0");
  persist(7, {{0, 400, 4.0}});
  EXPECT_EQ(persist.lost_until_ns(7), 300);
  EXPECT_EQ(persist.lost_until_ns(8), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(persist.read(7, 0, 1000).size(), 2u);
}

TEST(sample_persister, a_sampler_window_longer_than_its_ring_is_read_whole_from_the_store) {
  store::database db(":memory:");
  store::sample_store samples(db);
  telemetry::sampler_config cfg;
  cfg.ring_capacity = 16;  // 16 ms of one channel at 1 kHz
  cfg.history_period_ns = 0;
  std::vector<std::unique_ptr<telemetry::sensor>> sensors;
  sensors.push_back(std::make_unique<tick_sensor>());
  telemetry::sampler sampler(std::move(sensors), cfg);
  sample_persister persist(samples, sampler.channels(), 1'000'000'000);
  sampler.set_sink([&](std::int64_t job, const std::vector<telemetry::sample>& b) { persist(job, b); });
  sampler.set_archive(&persist);
  sampler.set_job(5);
  for (int k = 1; k <= 200; ++k) sampler.tick(k * 1'000'000LL);
  EXPECT_EQ(sampler.complete_since_ns(), 1'000'000);
  const auto w = sampler.window(1'000'000, 200'000'000);
  ASSERT_EQ(w.size(), 200u);
  double sum = 0;
  for (const auto& s : w) sum += s.value;
  EXPECT_DOUBLE_EQ(sum / 200, 100.5) << "mean of 1..200 W, not of the ring's last 16";
}

}  // namespace
}  // namespace jetperf::daemon
