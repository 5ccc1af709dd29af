// Windows longer than the sampler's ring: the ring says what it no longer holds, and with an
// archive (the store, in the daemon) the attached job's older samples are read back from it.
#include <jetperf/telemetry/sampler.hpp>

#include <limits>
#include <map>

#include <gtest/gtest.h>

namespace jetperf::telemetry {
namespace {

// rail.A = the tick's number k, power.total = 2k (ticks at k x 1000 ns).
class tick_sensor final : public sensor {
 public:
  std::vector<channel_info> channels() const override {
    return {{"rail.A", "W", channel_kind::power, "test"}, {"power.total", "W", channel_kind::power, "test"}};
  }
  void read(std::int64_t t_ns, double* v) override {
    v[0] = static_cast<double>(t_ns / 1000);
    v[1] = 2.0 * v[0];
  }
  std::optional<int> total_power_channel() const override { return 1; }
};

// What the sink was given, per job, readable back like the store.
class memory_archive final : public sample_archive {
 public:
  void store(std::int64_t job, const std::vector<sample>& batch) {
    auto& v = stored_[job];
    v.insert(v.end(), batch.begin(), batch.end());
  }
  std::vector<sample> read(std::int64_t job, std::int64_t from_ns, std::int64_t to_ns) const override {
    ++reads;
    std::vector<sample> out;
    const auto it = stored_.find(job);
    if (it == stored_.end()) return out;
    for (const auto& s : it->second)
      if (s.t_ns >= from_ns && s.t_ns <= to_ns) out.push_back(s);
    return out;
  }
  std::int64_t lost_until_ns(std::int64_t) const override { return lost_until; }

  std::int64_t lost_until = std::numeric_limits<std::int64_t>::min();
  mutable int reads = 0;

 private:
  std::map<std::int64_t, std::vector<sample>> stored_;
};

std::unique_ptr<sampler> tiny_sampler(std::size_t capacity) {
  sampler_config cfg;
  cfg.ring_capacity = capacity;
  cfg.history_period_ns = 0;
  std::vector<std::unique_ptr<sensor>> v;
  v.push_back(std::make_unique<tick_sensor>());
  return std::make_unique<sampler>(std::move(v), cfg);
}

double mean_total(const std::vector<sample>& w) {
  double sum = 0;
  int n = 0;
  for (const auto& s : w)
    if (s.channel == 1) sum += s.value, ++n;
  return n ? sum / n : 0;
}

TEST(sampler_archive, a_wrapped_ring_says_from_when_it_holds_everything) {
  auto s = tiny_sampler(10);  // 5 ticks of 2 samples
  for (int k = 1; k <= 5; ++k) s->tick(k * 1000);
  EXPECT_EQ(s->complete_since_ns(), std::numeric_limits<std::int64_t>::min()) << "nothing dropped yet";
  for (int k = 6; k <= 20; ++k) s->tick(k * 1000);
  // Ticks 16..20 are held; tick 15 was the newest dropped.
  EXPECT_EQ(s->complete_since_ns(), 15001);
  const auto w = s->window(1000, 20000);
  ASSERT_EQ(w.size(), 10u);
  EXPECT_EQ(w.front().t_ns, 16000);
  EXPECT_DOUBLE_EQ(mean_total(w), 36.0) << "only the tail: 2 x mean(16..20)";
}

TEST(sampler_archive, a_window_longer_than_the_ring_reads_the_jobs_start_from_the_archive) {
  auto s = tiny_sampler(10);
  memory_archive archive;
  s->set_sink([&](std::int64_t job, const std::vector<sample>& b) { archive.store(job, b); });
  s->set_archive(&archive);
  for (int k = 1; k <= 3; ++k) s->tick(k * 1000);  // before the job: not stored at full rate
  s->set_job(7);
  for (int k = 4; k <= 20; ++k) s->tick(k * 1000);
  // No flush by hand: the window hands what is still pending to the sink itself.
  EXPECT_EQ(s->complete_since_ns(), 4000) << "from the job's first tick";
  const auto w = s->window(4000, 20000);
  ASSERT_EQ(w.size(), 34u) << "17 ticks x 2 channels, none twice";
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(w[i].t_ns, static_cast<std::int64_t>(4 + i / 2) * 1000) << i;
    EXPECT_EQ(w[i].channel, static_cast<int>(i % 2)) << i;
  }
  EXPECT_DOUBLE_EQ(mean_total(w), 24.0) << "the whole window: 2 x mean(4..20)";
  // A window the ring still holds does not touch the archive.
  const int reads = archive.reads;
  EXPECT_EQ(s->window(17000, 20000).size(), 8u);
  EXPECT_EQ(archive.reads, reads);
}

TEST(sampler_archive, a_tick_dropped_in_part_is_read_whole_from_the_archive) {
  auto s = tiny_sampler(9);  // an odd capacity: the oldest tick held has lost one of its samples
  memory_archive archive;
  s->set_sink([&](std::int64_t job, const std::vector<sample>& b) { archive.store(job, b); });
  s->set_archive(&archive);
  s->set_job(3);
  for (int k = 1; k <= 10; ++k) s->tick(k * 1000);
  const auto w = s->window(0, 10000);
  ASSERT_EQ(w.size(), 20u);
  for (std::size_t i = 1; i < w.size(); ++i)
    EXPECT_TRUE(w[i - 1].t_ns < w[i].t_ns || (w[i - 1].t_ns == w[i].t_ns && w[i - 1].channel < w[i].channel)) << i;
}

TEST(sampler_archive, samples_the_archive_lost_are_not_claimed) {
  auto s = tiny_sampler(10);
  memory_archive archive;
  s->set_sink([&](std::int64_t job, const std::vector<sample>& b) { archive.store(job, b); });
  s->set_archive(&archive);
  s->set_job(7);
  for (int k = 1; k <= 20; ++k) s->tick(k * 1000);
  archive.lost_until = 12000;  // a batch ending at tick 12 was not stored
  EXPECT_EQ(s->complete_since_ns(), 12001);
  archive.lost_until = 18000;  // lost after what the ring holds from: the ring still has it
  EXPECT_EQ(s->complete_since_ns(), 15001);
}

}  // namespace
}  // namespace jetperf::telemetry
