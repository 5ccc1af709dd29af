#include <cmath>

#include <gtest/gtest.h>

#include "support/json_workload.hpp"

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/kinds/sensor/sensor_kind.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

#include "../declared_columns.hpp"

using namespace jetperf;
using nlohmann::json;

namespace {

std::string field_of(const json& spec) {
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  try {
    w->normalize(spec, {});
  } catch (const validation_error& e) {
    return e.field();
  }
  return "<accepted>";
}

// A power channel updating every 20 ms (a new value each update, 4 mW apart), polled every
// millisecond, and its total; a temperature that is no power channel.
class updating_source final : public telemetry::sample_source {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"rail.VDD_IN", "W", telemetry::channel_kind::power, "test"},
            {"temp.CPU", "C", telemetry::channel_kind::temperature, "test"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from, std::int64_t to) const override {
    std::vector<telemetry::sample> out;
    for (auto t = from - from % 1'000'000 + 300'000; t <= to; t += 1'000'000) {
      const auto k = t / 20'000'000;
      out.push_back({0, t, 5.0 + 0.004 * static_cast<double>(k % 7)});
      out.push_back({1, t, 45.0});
    }
    return out;
  }
  std::optional<int> total_power_channel() const override { return 0; }
  double update_period_s() const override { return 0.020; }
  std::vector<double> power_read_durations_s() const override { return {1e-6, 2e-6, 3e-6}; }
};

// Three rails of one INA3221 (TX2's chip at 0x41, as its IIO folder names them), polled every
// millisecond; the middle one changes every 10 ms, the others every 20 ms, as the card once found
// VDD_SYS_CPU at half its chip's period.
class one_chip_source final : public telemetry::sample_source {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    const std::string chip = "/sys/bus/i2c/devices/0-0041/iio:device1/";
    return {{"rail.VDD_IN", "W", telemetry::channel_kind::power, chip + "in_power0_input"},
            {"rail.VDD_SYS_CPU", "W", telemetry::channel_kind::power, chip + "in_power1_input"},
            {"rail.VDD_SYS_DDR", "W", telemetry::channel_kind::power, chip + "in_power2_input"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from, std::int64_t to) const override {
    std::vector<telemetry::sample> out;
    const std::int64_t period_ns[] = {20'000'000, 10'000'000, 20'000'000};
    for (auto t = from - from % 1'000'000 + 300'000; t <= to; t += 1'000'000)
      for (int c = 0; c < 3; ++c) out.push_back({c, t, 5.0 + 0.004 * static_cast<double>(t / period_ns[c] % 7)});
    return out;
  }
  std::optional<int> total_power_channel() const override { return 0; }
  double update_period_s() const override { return 0; }  // IIO states no interval
};

}  // namespace

platform::board_offer with_cuda(bool has) {
  platform::board_offer o;
  o.has_cuda_device = has;
  return o;
}

TEST(sensor_kind, defaults_are_filled_in_and_one_point_is_the_card) {
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  const auto spec = w->normalize(json::object(), with_cuda(false));
  EXPECT_EQ(spec["loads"], json::array({"cpu"}));
  EXPECT_DOUBLE_EQ(spec["half_period_s"].get<double>(), 0.1);
  EXPECT_EQ(spec["cycles"].get<int>(), 15);
  EXPECT_EQ(spec["threads"].get<int>(), 1);
  const auto points = w->expand(spec);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0]["load"], "cpu");
  // The lead, 31 halves of 0.1 s.
  EXPECT_NEAR(w->estimate_points_s(spec, points, {})[0], 0.3 + 3.1, 1e-9);
}

TEST(sensor_kind, the_gpu_gets_a_wave_of_its_own_where_a_cuda_device_answers) {
  const auto spec = kinds::sensor_spec::parse_with(record(), true);
  EXPECT_EQ(spec.loads, (std::vector<std::string>{"cpu", "gpu"}));
  const auto points = kinds::expand(spec);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].load, "cpu");
  EXPECT_EQ(points[1].load, "gpu");
  // Asked for by name, once each, in the order given.
  const auto gpu_first = kinds::sensor_spec::parse_with(record_of(json{{"loads", {"gpu", "cpu", "gpu"}}}), true);
  EXPECT_EQ(gpu_first.loads, (std::vector<std::string>{"gpu", "cpu"}));
  // Stored as parsed: the stored spec names what ran.
  EXPECT_EQ(to_json(gpu_first.to_record())["loads"], json::array({"gpu", "cpu"}));
}

TEST(sensor_kind, a_board_that_says_it_has_a_gpu_is_not_enough_where_the_runtime_finds_none) {
  if (workloads::cuda_device_available()) GTEST_SKIP() << "a CUDA device is present";
  // A simulated board's GPU node says has_cuda_device; the card's default is then the CPU's wave.
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  EXPECT_EQ(w->normalize(json::object(), with_cuda(true))["loads"], json::array({"cpu"}));
  EXPECT_EQ(field_of({{"loads", {"gpu"}}}), "spec.loads");
}

TEST(sensor_kind, a_gpu_wave_without_a_cuda_device_is_refused_by_name) {
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  try {
    w->normalize({{"loads", {"cpu", "gpu"}}}, with_cuda(false));
    FAIL() << "accepted a gpu load with no CUDA device";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "spec.loads");
    EXPECT_NE(std::string(e.what()).find("CUDA device"), std::string::npos) << e.what();
  }
  EXPECT_EQ(field_of({{"loads", {"tpu"}}}), "spec.loads");
  EXPECT_EQ(field_of({{"loads", json::array()}}), "spec.loads");
  EXPECT_EQ(field_of({{"loads", {1}}}), "spec.loads");
}

TEST(sensor_kind, two_waves_must_fit_the_cards_minute_together) {
  // 100 cycles of 0.2 s halves: 40.5 s a wave, 81 s for two.
  const json one{{"cycles", 100}, {"half_period_s", 0.2}, {"loads", {"cpu"}}};
  EXPECT_NO_THROW(kinds::sensor_spec::parse_with(record_of(one), true));
  json two = one;
  two["loads"] = {"cpu", "gpu"};
  try {
    kinds::sensor_spec::parse_with(record_of(two), true);
    FAIL() << "accepted two waves past the minute";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "spec.cycles");
  }
}

TEST(sensor_kind, a_stored_spec_keeps_its_loads_and_an_older_one_ran_the_cpus_wave) {
  const auto stored = kinds::sensor_spec::stored(record{{"half_period_s", cell(0.1)}, {"cycles", cell(std::int64_t{15})},
                                                        {"threads", cell(std::int64_t{1})}});
  EXPECT_EQ(stored.loads, std::vector<std::string>{"cpu"});
  // A gpu wave stored where a device answered reads back on a machine without one.
  const auto gpu = kinds::sensor_spec::stored(record{{"half_period_s", cell(0.1)}, {"cycles", cell(std::int64_t{15})},
                                                     {"threads", cell(std::int64_t{1})}, {"loads", cell(cell_list{"gpu"})}});
  EXPECT_EQ(gpu.loads, std::vector<std::string>{"gpu"});
  EXPECT_EQ(kinds::expand(gpu).size(), 1u);
}

TEST(sensor_kind, a_gpu_point_where_no_cuda_device_answers_is_skipped_with_the_reason) {
  if (workloads::cuda_device_available()) GTEST_SKIP() << "a CUDA device is present";
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  // Stored where a device answered; run here, where none does (this build, or this machine).
  const json spec{{"half_period_s", 0.05}, {"cycles", 2}, {"threads", 1}, {"loads", {"gpu"}}};
  measure::point_context ctx;
  const auto r = w->run_point(ctx, spec, json{{"load", "gpu"}});
  EXPECT_EQ(r.status, "skipped");
  const auto* reason = r.metrics.cells().find("reason");
  ASSERT_TRUE(reason && reason->is_string());
  const auto& text = reason->as_string();
  EXPECT_TRUE(text.rfind("skipped: ", 0) == 0 || text.rfind("not supported", 0) == 0) << text;
}

TEST(sensor_kind, bad_specs_name_their_field) {
  EXPECT_EQ(field_of({{"half_period_s", 0.001}}), "spec.half_period_s");
  EXPECT_EQ(field_of({{"threads", 0}}), "spec.threads");
  EXPECT_EQ(field_of({{"bogus", 1}}), "spec.bogus");
  // 200 cycles of 0.2 s halves would take 80 s: past the card's minute.
  EXPECT_EQ(field_of({{"cycles", 200}, {"half_period_s", 0.2}}), "spec.cycles");
  EXPECT_EQ(field_of({{"cycles", 100}, {"half_period_s", 0.2}}), "<accepted>");
}

TEST(sensor_kind, the_card_gives_each_power_channel_its_period_and_says_why_a_step_was_not_seen) {
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  updating_source source;
  measure::point_context ctx;
  ctx.telemetry = &source;
  const json spec = w->normalize({{"cycles", 2}, {"half_period_s", 0.05}}, {});
  const auto r = w->run_point(ctx, spec, w->expand(spec)[0]);
  // The point's own cells are declared, and so is each channel's row; "channels" holds the rows
  // (the table's row_list).
  EXPECT_EQ(test::undeclared_keys(*w, r.metrics), w->columns().row_list);
  const auto& m = r.metrics.cells();
  ASSERT_TRUE(m.find("channels") && m.find("channels")->is_list());
  const auto& rows = m.find("channels")->as_list();
  ASSERT_EQ(rows.size(), 1u);  // the temperature is no power channel
  EXPECT_EQ(test::undeclared_keys(*w, row(rows[0].as_record())), "");
  const auto& c = rows[0].as_record();
  EXPECT_EQ(c.find("channel")->as_string(), "rail.VDD_IN");
  EXPECT_NEAR(*c.find("update_period_ms")->number(), 20.0, 0.1);
  EXPECT_NEAR(*c.find("resolution_mw")->number(), 4.0, 1e-6);
  EXPECT_EQ(c.find("cached")->boolean(), true);
  // A source that does not follow the load shows no step: no lag, and the row says why.
  EXPECT_TRUE(c.find("lag_ms")->is_null());
  EXPECT_FALSE(c.find("unusable")->as_string().empty());
  // Four edges made; the load thread that notes them runs at the lowest priority, so on a busy
  // host it may see a 50 ms half late or not at all: at least one, never more than were made.
  EXPECT_GE(*m.find("edges")->integer(), 1);
  EXPECT_LE(*m.find("edges")->integer(), 4);
  EXPECT_NEAR(*m.find("read_p50_us")->number(), 2.0, 1e-9);
  EXPECT_EQ(*m.find("reads")->integer(), 3);
  EXPECT_TRUE(m.find("averaging")->is_null());  // no board: no driver configuration
}

// A figure no sensor can give is flagged, whatever the card measured: the rail whose period is
// half its chip's is implausible with the bound named, its chip's others are not.
TEST(sensor_kind, a_channel_updating_at_half_its_chips_period_is_flagged_implausible) {
  auto w = jetperf::test::json_workload(kinds::make_sensor_kind());
  one_chip_source source;
  measure::point_context ctx;
  ctx.telemetry = &source;
  const json spec = w->normalize({{"cycles", 2}, {"half_period_s", 0.05}}, {});
  const auto r = w->run_point(ctx, spec, w->expand(spec)[0]);
  const auto& rows = r.metrics.cells().find("channels")->as_list();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(test::undeclared_keys(*w, row(rows[1].as_record())), "");
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& c = rows[i].as_record();
    ASSERT_TRUE(c.find("update_period_ms")->is_number()) << c.find("channel")->as_string();
    EXPECT_NEAR(*c.find("update_period_ms")->number(), i == 1 ? 10.0 : 20.0, 0.2);
    if (i != 1) {
      EXPECT_FALSE(c.contains("implausible")) << c.find("channel")->as_string();
    }
  }
  const auto* bounds = rows[1].as_record().find("implausible");
  ASSERT_TRUE(bounds && bounds->is_record());
  ASSERT_TRUE(bounds->as_record().contains("sensor_period_off_chip"));
  EXPECT_EQ(bounds->as_record().at("sensor_period_off_chip").as_string(),
            "update period 10 ms < 20 ms (its chip's)");
}
