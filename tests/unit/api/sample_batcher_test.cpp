// The telemetry stream's full-rate batches over a view with known samples: consecutive batches
// hand over every sample exactly once, a batch over the cap keeps its newest samples and counts
// the rest, and the feed publishes batches on their own topic.
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/api/sample_batcher.hpp>
#include <jetperf/api/telemetry_feed.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/event_hub.hpp>

#include "sample_list.hpp"

namespace jetperf::test {
namespace {

// Two channels; samples are added as a sampler's ticks add them (both channels, one time).
class ring_view final : public api::telemetry_view {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"power.total", "W", telemetry::channel_kind::power, "sim"},
            {"clock.gpu", "Hz", telemetry::channel_kind::clock, "sim"}};
  }
  std::vector<api::channel_reading> latest() const override { return {{}, {}}; }
  std::optional<int> total_power_channel() const override { return 0; }
  telemetry::sampler_health health() const override { return {}; }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    return samples_.window(from_ns, to_ns);
  }
  void tick(std::int64_t t_ns) {
    samples_.add({0, t_ns, static_cast<double>(t_ns) / 1e6});
    samples_.add({1, t_ns, 1e9});
  }

 private:
  sample_list samples_;
};

constexpr std::int64_t ms = 1'000'000;

// The times of a batch's samples of channel 0, rebuilt from t0_ns and dt_us.
std::vector<std::int64_t> power_times(const nlohmann::json& batch) {
  std::vector<std::int64_t> out;
  for (const auto& row : batch["samples"])
    if (row[1] == 0) out.push_back(batch["t0_ns"].get<std::int64_t>() + row[0].get<std::int64_t>() * 1000);
  return out;
}

TEST(sample_batcher, consecutive_batches_cover_every_sample_once) {
  ring_view view;
  api::sample_batcher batcher(100 * ms);
  // Older than the first batch's lookback: not handed over.
  for (std::int64_t t = 1000 * ms; t < 1900 * ms; t += 10 * ms) view.tick(t);
  for (std::int64_t t = 1900 * ms; t < 2000 * ms; t += 10 * ms) view.tick(t);
  auto first = batcher.next(view, 2000 * ms);
  EXPECT_EQ(first["channels"], nlohmann::json({"power.total", "clock.gpu"}));
  EXPECT_EQ(first["dropped"], 0);
  EXPECT_EQ(first["t0_ns"], 1900 * ms);
  EXPECT_EQ(first["samples"].size(), 20u);
  EXPECT_EQ(first["samples"][2], nlohmann::json::array({10000, 0, 1910.0}));  // dt in us, channel, value
  EXPECT_EQ(first["samples"][3], nlohmann::json::array({10000, 1, 1e9}));

  // Ticks at uneven times, a batch with nothing new, then more: every tick exactly once, in order.
  std::vector<std::int64_t> expected, seen = power_times(first);
  for (std::int64_t t = 1900 * ms; t < 2000 * ms; t += 10 * ms) expected.push_back(t);
  std::int64_t t = 2000 * ms;
  for (int round = 0; round < 6; ++round) {
    for (int k = 0; k < round * 3; ++k, t += 7 * ms + 3000) {
      view.tick(t);
      expected.push_back(t);
    }
    const auto batch = batcher.next(view, t);
    EXPECT_EQ(batch["dropped"], 0);
    if (round == 0) EXPECT_TRUE(batch["samples"].empty());
    for (auto x : power_times(batch)) seen.push_back(x);
  }
  EXPECT_EQ(seen, expected);
}

TEST(sample_batcher, a_batch_over_the_cap_keeps_the_newest_and_says_how_many_it_left_out) {
  ring_view view;
  api::sample_batcher batcher(10'000 * ms, /*cap=*/50);
  for (std::int64_t t = 0; t < 40; ++t) view.tick(1000 * ms + t * ms);  // 80 samples
  const auto batch = batcher.next(view, 1040 * ms);
  EXPECT_EQ(batch["dropped"], 30);
  ASSERT_EQ(batch["samples"].size(), 50u);
  EXPECT_EQ(batch["t0_ns"], 1015 * ms);  // the 31st sample: tick 15's first channel
  EXPECT_EQ(batch["samples"][0][1], 0);
  EXPECT_EQ(power_times(batch).back(), 1039 * ms);
  // The next batch goes on after the newest one handed over.
  view.tick(1040 * ms);
  const auto next = batcher.next(view, 1041 * ms);
  EXPECT_EQ(next["dropped"], 0);
  EXPECT_EQ(power_times(next), std::vector<std::int64_t>{1040 * ms});

  // After a reset (nobody watched), the next batch starts at its lookback, not where it stopped.
  for (std::int64_t t = 0; t < 20; ++t) view.tick(2000 * ms + t * ms);
  batcher.reset();
  api::sample_batcher fresh(5 * ms);
  EXPECT_EQ(fresh.next(view, 2020 * ms)["samples"].size(), 10u);  // ticks 2015..2019 ms
  // 10 s back: all 61 ticks again (122 samples), over the cap of 50.
  EXPECT_EQ(batcher.next(view, 2020 * ms)["dropped"], 72);
}

TEST(sample_batcher, the_feed_publishes_batches_on_their_own_topic) {
  ring_view view;
  event_hub hub;
  std::vector<std::pair<std::string, std::string>> got;
  auto sub = hub.subscribe(api::k_telemetry_samples_topic, [&](const std::string& e, const std::string& d) {
    got.emplace_back(e, d);
    return true;
  });
  api::telemetry_feed feed(view, hub);
  view.tick(1000 * ms);
  feed.publish_samples_once(1001 * ms);
  view.tick(1010 * ms);
  feed.publish_samples_once(1011 * ms);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "samples");
  EXPECT_EQ(power_times(nlohmann::json::parse(got[0].second)), std::vector<std::int64_t>{1000 * ms});
  EXPECT_EQ(power_times(nlohmann::json::parse(got[1].second)), std::vector<std::int64_t>{1010 * ms});
}

TEST(sample_batcher, the_feed_thread_hands_over_every_tick_once) {
  ring_view view;
  event_hub hub;
  std::mutex mutex;
  std::vector<std::string> batches;
  auto sub = hub.subscribe(api::k_telemetry_samples_topic, [&](const std::string&, const std::string& d) {
    std::lock_guard<std::mutex> lock(mutex);
    batches.push_back(d);
    return true;
  });
  api::telemetry_feed feed(view, hub, std::chrono::milliseconds(20));
  feed.start();
  // Ticks at the real clock, as the sampler's, while the thread publishes every 20 ms.
  std::vector<std::int64_t> ticked;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  while (std::chrono::steady_clock::now() < until) {
    ticked.push_back(monotonic_ns());
    view.tick(ticked.back());
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  feed.stop();
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_GE(batches.size(), 5u);
  std::vector<std::int64_t> seen;
  for (const auto& b : batches)
    for (auto t : power_times(nlohmann::json::parse(b))) seen.push_back(t);
  // From the first tick the first batch reached back to, every tick once, in order (a batch's
  // times are whole microseconds after its first sample's).
  ASSERT_FALSE(seen.empty());
  std::size_t first = 0;
  while (first < ticked.size() && ticked[first] < seen.front()) ++first;
  ASSERT_EQ(seen.size(), ticked.size() - first);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_LE(std::llabs(seen[i] - ticked[first + i]), 1000) << i;
}

}  // namespace
}  // namespace jetperf::test
