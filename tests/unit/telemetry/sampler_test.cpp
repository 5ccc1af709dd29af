#include <jetperf/telemetry/sampler.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/rail_sensor.hpp>
#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::telemetry {
namespace {

// Two channels: a counter of reads and a total power of 2x the counter; an optional NaN channel.
class counting_sensor : public sensor {
 public:
  explicit counting_sensor(std::int64_t min_interval = 0) : min_interval_(min_interval) {}
  std::vector<channel_info> channels() const override {
    return {{"rail.A", "W", channel_kind::power, "test"},
            {"power.total", "W", channel_kind::power, "test"},
            {"temp.off", "C", channel_kind::temperature, "test"}};
  }
  void read(std::int64_t, double* v) override {
    ++reads;
    v[0] = static_cast<double>(reads.load());
    v[1] = 2.0 * static_cast<double>(reads.load());
    v[2] = std::nan("");
  }
  std::int64_t min_interval_ns() const override { return min_interval_; }
  std::optional<int> total_power_channel() const override { return 1; }
  std::atomic<int> reads{0};

 private:
  std::int64_t min_interval_;
};

std::vector<std::unique_ptr<sensor>> sensors(std::unique_ptr<sensor> a, std::unique_ptr<sensor> b = nullptr) {
  std::vector<std::unique_ptr<sensor>> v;
  v.push_back(std::move(a));
  if (b) v.push_back(std::move(b));
  return v;
}

TEST(sampler, channels_total_and_window) {
  sampler_config cfg;
  cfg.ring_capacity = 1000;
  sampler s(sensors(std::make_unique<counting_sensor>(), std::make_unique<counting_sensor>()), cfg);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 6u);
  EXPECT_EQ(s.total_power_channel(), 1);  // the first sensor offering one
  EXPECT_DOUBLE_EQ(s.update_period_s(), 0.001);
  for (int k = 1; k <= 5; ++k) s.tick(k * 1000);
  auto w = s.window(2000, 4000);
  ASSERT_EQ(w.size(), 12u);  // 3 ticks x 4 non-NaN channels
  EXPECT_EQ(w.front().t_ns, 2000);
  EXPECT_EQ(w.back().t_ns, 4000);
  EXPECT_EQ(w[0].channel, 0);
  EXPECT_DOUBLE_EQ(w[0].value, 2);
  EXPECT_DOUBLE_EQ(w[1].value, 4);
  for (const auto& smp : w) EXPECT_NE(smp.channel, 2);  // NaN: no sample
  auto latest = s.latest();
  EXPECT_DOUBLE_EQ(*latest[1], 10);
  EXPECT_FALSE(latest[2]);
  EXPECT_TRUE(s.window(6000, 9000).empty());
  EXPECT_TRUE(s.window(4000, 3000).empty());
}

TEST(sampler, ring_keeps_the_newest) {
  sampler_config cfg;
  cfg.ring_capacity = 10;  // 5 ticks of 2 samples
  sampler s(sensors(std::make_unique<counting_sensor>()), cfg);
  for (int k = 1; k <= 20; ++k) s.tick(k * 1000);
  auto w = s.window(0, 1'000'000);
  ASSERT_EQ(w.size(), 10u);
  EXPECT_EQ(w.front().t_ns, 16000);
  EXPECT_EQ(w.back().t_ns, 20000);
}

TEST(sampler, min_interval_decimates_a_sensor) {
  auto slow = std::make_unique<counting_sensor>(5000);
  auto* raw = slow.get();
  sampler s(sensors(std::make_unique<counting_sensor>(), std::move(slow)), sampler_config{});
  for (int k = 0; k < 10; ++k) s.tick(k * 1000);
  EXPECT_EQ(raw->reads, 2);  // at 0 and 5000
}

TEST(sampler, job_samples_flow_to_sink_and_history_is_decimated) {
  sampler_config cfg;
  cfg.period_ns = 1'000'000;
  cfg.history_period_ns = 4'000'000;
  sampler s(sensors(std::make_unique<counting_sensor>()), cfg);
  std::map<std::int64_t, std::vector<sample>> got;
  s.set_sink([&](std::int64_t job, const std::vector<sample>& b) {
    auto& v = got[job];
    v.insert(v.end(), b.begin(), b.end());
  });
  for (int k = 0; k < 8; ++k) s.tick(k * 1'000'000);  // ticks at 0 and 4 ms go to history
  s.set_job(7);
  EXPECT_EQ(s.job(), 7);
  for (int k = 8; k < 11; ++k) s.tick(k * 1'000'000);
  s.clear_job();
  EXPECT_FALSE(s.job());
  s.flush();
  ASSERT_EQ(got[0].size(), 4u);
  EXPECT_EQ(got[0][0].t_ns, 0);
  EXPECT_EQ(got[0][2].t_ns, 4'000'000);
  ASSERT_EQ(got[7].size(), 6u);
  EXPECT_EQ(got[7][0].t_ns, 8'000'000);
  EXPECT_EQ(got[7][5].t_ns, 10'000'000);
  EXPECT_THROW(s.set_job(0), validation_error);
}

// History is kept by time, not by tick count: ticks a little late still give one sample per
// period, and at a tick period that does not divide it, one per period on average.
std::vector<std::int64_t> history_times(std::int64_t period_ns, const std::vector<std::int64_t>& ticks) {
  sampler_config cfg;
  cfg.period_ns = period_ns;
  cfg.history_period_ns = 10'000'000;
  sampler s(sensors(std::make_unique<counting_sensor>()), cfg);
  std::vector<std::int64_t> times;
  s.set_sink([&](std::int64_t job, const std::vector<sample>& b) {
    EXPECT_EQ(job, 0);
    for (const auto& x : b)
      if (x.channel == 0) times.push_back(x.t_ns);
  });
  for (auto t : ticks) s.tick(t);
  s.flush();
  return times;
}

TEST(sampler, history_follows_time_at_any_tick_period) {
  // Every 10 ms but 0.2 ms early or late: each is a history sample, none skipped.
  EXPECT_EQ(history_times(1'000'000, {0, 9'800'000, 20'100'000, 29'900'000, 40'200'000}),
            (std::vector<std::int64_t>{0, 9'800'000, 20'100'000, 29'900'000, 40'200'000}));
  // Every 3 ms: the tick nearest each 10 ms, so 6 samples in 60 ms.
  std::vector<std::int64_t> every3;
  for (std::int64_t t = 0; t <= 60'000'000; t += 3'000'000) every3.push_back(t);
  EXPECT_EQ(history_times(3'000'000, every3),
            (std::vector<std::int64_t>{0, 9'000'000, 21'000'000, 30'000'000, 39'000'000, 51'000'000, 60'000'000}));
  // A gap (a stalled thread) restarts the schedule rather than bursting.
  EXPECT_EQ(history_times(1'000'000, {0, 10'000'000, 95'000'000, 96'000'000, 105'000'000}),
            (std::vector<std::int64_t>{0, 10'000'000, 95'000'000, 105'000'000}));
}

// Without a job the thread ticks at the idle period; attaching one wakes it at once to the
// full period, and the health says which rate it is at. The idle period is a minute, so a
// wake-up that waited for the idle tick, or an idle thread that ticked at the full period,
// shows as a count, not as a duration.
TEST(sampler, idles_slowly_and_wakes_to_full_rate_for_a_job) {
  sampler_config cfg;
  cfg.period_ns = 1'000'000;
  cfg.idle_period_ns = 60'000'000'000;
  cfg.history_period_ns = 0;
  auto counter = std::make_unique<counting_sensor>();
  auto* raw = counter.get();
  sampler s(sensors(std::move(counter)), cfg);
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int idle_reads = raw->reads.load();
  EXPECT_LE(idle_reads, 1);  // the first tick at most; about 300 at the full period
  auto h = s.health();
  EXPECT_FALSE(h.full_rate);
  EXPECT_DOUBLE_EQ(h.idle_period_s, 60.0);
  s.set_job(3);
  // Woken at once, not at the end of the idle minute (eventually gives up after 5 s).
  ASSERT_TRUE(jetperf::test::eventually([&] { return raw->reads.load() >= idle_reads + 100; }));
  h = s.health();
  EXPECT_TRUE(h.full_rate);
  EXPECT_GT(h.achieved_rate_hz, 20.0);  // 100 reads in under 5 s; the idle rate is 1/60 Hz
  s.clear_job();
  // The thread notices at its next full-rate tick.
  ASSERT_TRUE(jetperf::test::eventually([&] { return !s.health().full_rate; }));
  EXPECT_GT(s.health().achieved_rate_hz, 20.0);  // the job's stretch, kept while idle
  const int after = raw->reads.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LE(raw->reads.load() - after, 1);
  s.stop();
}

// A job's end is its samples' end: when clear_job() returns every sample the thread took for the
// job is in the sink, not waiting for the writer's next flush (the runner marks the job finished
// right after, and a trace read then must be the trace read later).
TEST(sampler, clearing_the_job_hands_its_samples_to_the_sink_before_it_returns) {
  sampler_config cfg;
  cfg.period_ns = 1'000'000;
  cfg.flush_interval_ns = 60'000'000'000;  // the writer alone would wait a minute
  cfg.history_period_ns = 0;
  auto counter = std::make_unique<counting_sensor>();
  auto* raw = counter.get();
  sampler s(sensors(std::move(counter)), cfg);
  std::mutex m;
  std::size_t sunk = 0;
  s.set_sink([&](std::int64_t job, const std::vector<sample>& b) {
    std::lock_guard<std::mutex> lock(m);
    if (job == 4) sunk += b.size();
  });
  s.set_job(4);
  s.start();
  for (int i = 0; i < 1000 && raw->reads.load() < 30; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  s.clear_job();
  std::size_t at_clear = 0;
  {
    std::lock_guard<std::mutex> lock(m);
    at_clear = sunk;
  }
  s.stop();
  EXPECT_GE(at_clear, 60u);  // two power channels a tick, 30 ticks or more
  std::lock_guard<std::mutex> lock(m);
  EXPECT_EQ(sunk, at_clear);  // nothing of job 4 was left for stop()'s flush
}

// A sensor with no power channel (a clock): read at the configured period whatever a point asks.
class clock_like_sensor : public sensor {
 public:
  std::vector<channel_info> channels() const override { return {{"clock.gpu", "Hz", channel_kind::clock, "test"}}; }
  void read(std::int64_t, double* v) override { v[0] = static_cast<double>(++reads); }
  int reads = 0;
};

TEST(sampler, a_point_may_poll_the_power_sensors_faster_and_put_the_period_back) {
  sampler_config cfg;
  cfg.period_ns = 10'000'000;
  cfg.fast_period_ns = 1'000'000;
  cfg.history_period_ns = 0;
  auto power = std::make_unique<counting_sensor>();
  auto clock = std::make_unique<clock_like_sensor>();
  auto* p = power.get();
  auto* c = clock.get();
  sampler s(sensors(std::move(power), std::move(clock)), cfg);
  EXPECT_DOUBLE_EQ(s.tick_period_s(), 0.010);
  EXPECT_DOUBLE_EQ(s.fastest_tick_period_s(), 0.001);
  // Clamped to what the daemon allows: no faster than the fast period, no slower than its own.
  EXPECT_DOUBLE_EQ(s.set_job_tick_period_s(0.0001), 0.001);
  EXPECT_DOUBLE_EQ(s.set_job_tick_period_s(0.5), 0.010);
  EXPECT_DOUBLE_EQ(s.set_job_tick_period_s(0.00125), 0.00125);
  EXPECT_DOUBLE_EQ(s.tick_period_s(), 0.00125);
  EXPECT_DOUBLE_EQ(s.health().period_s, 0.00125);
  // 100 ms of ticks at 1.25 ms: the power sensor every tick, the clock every 10 ms.
  for (std::int64_t t = 1'250'000; t <= 100'000'000; t += 1'250'000) s.tick(t);
  EXPECT_EQ(p->reads.load(), 80);
  EXPECT_GE(c->reads, 9);
  EXPECT_LE(c->reads, 10);
  EXPECT_DOUBLE_EQ(s.set_job_tick_period_s(0), 0.010);
  const int clock_before = c->reads;
  for (std::int64_t t = 110'000'000; t <= 200'000'000; t += 10'000'000) s.tick(t);
  EXPECT_EQ(p->reads.load(), 90);
  EXPECT_EQ(c->reads - clock_before, 10);
  // A fast period longer than the period itself is refused.
  cfg.fast_period_ns = 20'000'000;
  EXPECT_THROW(sampler(sensors(std::make_unique<counting_sensor>()), cfg), validation_error);
}

// A point's period against a job period a hundred times slower, so each phase shows as a
// count of reads (a few against hundreds), whatever the machine's load.
TEST(sampler, the_sampling_thread_follows_a_points_period) {
  sampler_config cfg;
  cfg.period_ns = 100'000'000;
  cfg.fast_period_ns = 1'000'000;
  cfg.history_period_ns = 0;
  auto counter = std::make_unique<counting_sensor>();
  auto* raw = counter.get();
  sampler s(sensors(std::move(counter)), cfg);
  s.set_job(5);
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LE(raw->reads.load(), 6);  // ~4 at 100 ms; ~300 at the point's period
  s.set_job_tick_period_s(0.001);
  const int fast_from = raw->reads.load();
  ASSERT_TRUE(jetperf::test::eventually([&] { return raw->reads.load() - fast_from >= 200; }));
  EXPECT_GT(s.health().achieved_rate_hz, 40.0);  // 200 reads in under 5 s; 10 Hz at the job's period
  s.set_job_tick_period_s(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  const int back_from = raw->reads.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LE(raw->reads.load() - back_from, 6);
  // Idle again, the health says the rate at the configured period, not the point's.
  s.clear_job();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto h = s.health();
  EXPECT_DOUBLE_EQ(h.period_s, 0.100);
  EXPECT_LT(h.achieved_rate_hz, 40.0);
  EXPECT_GT(h.achieved_rate_hz, 2.0);
  s.stop();
}

TEST(sampler, idle_period_below_the_period_is_refused) {
  sampler_config cfg;
  cfg.period_ns = 10'000'000;
  cfg.idle_period_ns = 1'000'000;
  EXPECT_THROW(sampler(sensors(std::make_unique<counting_sensor>()), cfg), validation_error);
}

TEST(sampler, bad_config_is_rejected) {
  sampler_config cfg;
  cfg.period_ns = 10;
  EXPECT_THROW(sampler(sensors(std::make_unique<counting_sensor>()), cfg), validation_error);
}

TEST(sampler, thread_over_a_rail_tree) {
  test::temp_dir t;
  std::string h = t.file("sys/bus/i2c/devices/1-0040/hwmon/hwmon1");
  test::write_file(t.file("sys/bus/i2c/devices/1-0040/name"), "ina3221\n");
  test::write_file(h + "/in1_label", "VDD_IN\n");
  test::write_file(h + "/in1_input", "5000\n");
  test::write_file(h + "/curr1_input", "1000\n");
  platform::sysfs_root root(t.path());
  std::vector<std::unique_ptr<sensor>> v;
  v.push_back(std::make_unique<rail_sensor>(root, discover_rails(root)));
  sampler_config cfg;
  cfg.period_ns = 2'000'000;
  cfg.flush_interval_ns = 10'000'000;
  sampler s(std::move(v), cfg);
  std::size_t sunk = 0;
  std::mutex m;
  s.set_sink([&](std::int64_t job, const std::vector<sample>& b) {
    std::lock_guard<std::mutex> lock(m);
    if (job == 3) sunk += b.size();
  });
  s.set_job(3);
  std::int64_t begin = monotonic_ns();
  s.start();
  EXPECT_TRUE(s.running());
  // Wait for work, not for time: the assertion is about counts and order.
  for (int i = 0; i < 1000 && s.health().ticks < 20; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  s.stop();
  auto h2 = s.health();
  EXPECT_FALSE(h2.running);
  EXPECT_GE(h2.ticks, 20u);
  EXPECT_EQ(h2.samples, h2.ticks);
  EXPECT_GT(h2.achieved_rate_hz, 0);
  EXPECT_GE(h2.cpu_time_s, 0);
  EXPECT_GE(h2.jitter_p99_s, h2.jitter_p50_s);
  auto w = s.window(begin, monotonic_ns());
  ASSERT_EQ(w.size(), h2.ticks);
  for (std::size_t i = 1; i < w.size(); ++i) EXPECT_GT(w[i].t_ns, w[i - 1].t_ns);
  EXPECT_DOUBLE_EQ(w.back().value, 5.0);
  std::lock_guard<std::mutex> lock(m);
  EXPECT_EQ(sunk, h2.ticks);  // stop() flushed everything
}

}  // namespace
}  // namespace jetperf::telemetry

namespace jetperf::telemetry {
namespace {

// A power sensor whose read takes at least 2 ms, for three channels: 2/3 ms a channel.
class slow_sensor : public sensor {
 public:
  std::vector<channel_info> channels() const override {
    return {{"rail.A", "W", channel_kind::power, "test"},
            {"rail.B", "W", channel_kind::power, "test"},
            {"power.total", "W", channel_kind::power, "test"}};
  }
  void read(std::int64_t, double* v) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    v[0] = v[1] = v[2] = 1;
  }
};

// Temperatures only: not a power read, not timed.
class temperature_sensor : public sensor {
 public:
  std::vector<channel_info> channels() const override { return {{"temp.A", "C", channel_kind::temperature, "test"}}; }
  void read(std::int64_t, double* v) override { v[0] = 40; }
};

TEST(sampler, times_each_power_read_per_channel_and_keeps_the_latest) {
  sampler_config cfg;
  sampler s(sensors(std::make_unique<slow_sensor>(), std::make_unique<temperature_sensor>()), cfg);
  EXPECT_TRUE(s.power_read_durations_s().empty());
  for (int k = 1; k <= 3; ++k) s.tick(k * 1'000'000);
  const auto d = s.power_read_durations_s();
  ASSERT_EQ(d.size(), 3u);  // one a tick: the temperature group is not timed
  for (double x : d) EXPECT_GE(x, 0.002 / 3);
}

// As slow_sensor, but it times one file read of its own (as rail_sensor does): 0.5 ms.
class one_file_timed_sensor : public slow_sensor {
 public:
  std::optional<double> last_file_read_s() const override { return 0.0005; }
};

TEST(sampler, takes_a_groups_own_timed_file_read_over_its_share_of_the_group_read) {
  sampler_config cfg;
  sampler s(sensors(std::make_unique<one_file_timed_sensor>()), cfg);
  for (int k = 1; k <= 2; ++k) s.tick(k * 1'000'000);
  const auto d = s.power_read_durations_s();
  ASSERT_EQ(d.size(), 2u);
  // Not the 2 ms read over 3 channels.
  for (double x : d) EXPECT_DOUBLE_EQ(x, 0.0005);
}

TEST(sampler, a_rail_sensor_times_one_sysfs_read_of_its_first_rail) {
  test::temp_dir t;
  std::string h = t.file("sys/bus/i2c/devices/1-0040/hwmon/hwmon1");
  test::write_file(t.file("sys/bus/i2c/devices/1-0040/name"), "ina3221\n");
  for (const char* n : {"1", "2"}) {
    test::write_file(h + "/in" + n + "_label", std::string(n) == "1" ? "VDD_GPU_SOC\n" : "VDD_CPU_CV\n");
    test::write_file(h + "/in" + n + "_input", "5000\n");
    test::write_file(h + "/curr" + n + "_input", "1000\n");
  }
  platform::sysfs_root root(t.path());
  rail_sensor rails(root, discover_rails(root));
  EXPECT_FALSE(rails.last_file_read_s().has_value());  // nothing read yet
  std::vector<double> v(rails.channels().size());
  rails.read(0, v.data());
  ASSERT_TRUE(rails.last_file_read_s().has_value());
  // One pread of a small file: well under a millisecond here, and never the whole group's.
  EXPECT_GT(*rails.last_file_read_s(), 0);
  EXPECT_LT(*rails.last_file_read_s(), 0.1);
  EXPECT_DOUBLE_EQ(v[0], 5.0);
}

TEST(sampler, the_read_durations_are_a_ring_of_the_latest) {
  sampler_config cfg;
  sampler s(sensors(std::make_unique<counting_sensor>()), cfg);
  for (std::size_t k = 1; k <= sampler::k_read_durations + 10; ++k) s.tick(static_cast<std::int64_t>(k) * 1'000'000);
  EXPECT_EQ(s.power_read_durations_s().size(), sampler::k_read_durations);
}

}  // namespace
}  // namespace jetperf::telemetry
