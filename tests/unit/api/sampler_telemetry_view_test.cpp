// The daemon's adapter from the real sampler to telemetry_view, driven by manual ticks.
#include <gtest/gtest.h>

#include <cmath>

#include <jetperf/api/sampler_telemetry_view.hpp>
#include <jetperf/common/clock.hpp>

namespace jetperf::test {
namespace {

class counting_sensor final : public telemetry::sensor {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"power.total", "W", telemetry::channel_kind::power, "test"},
            {"temp.GPU", "C", telemetry::channel_kind::temperature, "test"}};
  }
  void read(std::int64_t, double* values) override {
    values[0] = 5.0 + static_cast<double>(reads_++);
    values[1] = std::nan("");  // offline
  }
  std::optional<int> total_power_channel() const override { return 0; }

 private:
  int reads_ = 0;
};

TEST(sampler_telemetry_view, latest_values_times_and_health) {
  std::vector<std::unique_ptr<telemetry::sensor>> sensors;
  sensors.push_back(std::make_unique<counting_sensor>());
  telemetry::sampler_config config;
  config.period_ns = 10'000'000;
  config.ring_capacity = 1024;
  telemetry::sampler s(std::move(sensors), config);
  api::sampler_telemetry_view view(s);

  ASSERT_EQ(view.channels().size(), 2u);
  EXPECT_EQ(view.channels()[0].name, "power.total");
  EXPECT_EQ(view.total_power_channel(), 0);

  const auto t0 = monotonic_ns();
  s.tick(t0 - 20'000'000);
  s.tick(t0 - 10'000'000);
  const auto readings = view.latest();
  ASSERT_EQ(readings.size(), 2u);
  ASSERT_TRUE(readings[0].value.has_value());
  EXPECT_EQ(*readings[0].value, 6.0);
  EXPECT_EQ(readings[0].t_ns, t0 - 10'000'000);
  EXPECT_FALSE(readings[1].value.has_value());

  const auto snapshot = api::telemetry_snapshot_json(view);
  EXPECT_EQ(snapshot["channels"][0]["value"], 6.0);
  EXPECT_EQ(snapshot["channels"][1]["kind"], "temperature");
  EXPECT_TRUE(snapshot["channels"][1]["value"].is_null());
  EXPECT_EQ(api::sampler_health_json(view.health())["period_s"], 0.01);

  // The ring's samples, as the stream's full-rate batches read them.
  const auto all = view.window(t0 - 20'000'000, t0);
  ASSERT_EQ(all.size(), 2u);  // one channel read per tick (the temperature never is)
  EXPECT_EQ(all[0].t_ns, t0 - 20'000'000);
  EXPECT_EQ(all[1].t_ns, t0 - 10'000'000);
  EXPECT_EQ(all[1].value, 6.0);
  EXPECT_EQ(view.window(t0 - 15'000'000, t0).size(), 1u);
}

}  // namespace
}  // namespace jetperf::test
