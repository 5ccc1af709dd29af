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
