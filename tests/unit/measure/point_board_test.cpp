#include <jetperf/store/cell_json.hpp>
#include <jetperf/measure/point_board.hpp>

#include <algorithm>

#include <gtest/gtest.h>

#include "support/fake_sources.hpp"

using nlohmann::json;
using namespace jetperf;

namespace {

// A board whose EMC does not lock where asked: it reads back `emc_hz` whatever was requested
// (GPU and CPU clocks read back as asked, as min = max locks do).
class stubborn_emc_board final : public platform::board_settings {
 public:
  explicit stubborn_emc_board(std::int64_t emc_hz) : emc_hz_(emc_hz) {}
  platform::board_offer offered() const override { return {}; }
  void arm(std::int64_t) override {}
  platform::board_setting apply(const platform::board_setting& s) override {
    platform::board_setting back = s;
    if (s.emc_freq_hz) back.emc_freq_hz = emc_hz_;
    return back;
  }
  void restore() override {}

 private:
  std::int64_t emc_hz_;
};

bool has_flag(const json& m, const std::string& f) {
  const auto& flags = m.at("flags");
  return std::find(flags.begin(), flags.end(), f) != flags.end();
}

// A point's window verdict after applying `point` on `board`, with `source` as telemetry.
json verdict(platform::board_settings& board, const json& point, telemetry::sample_source* source = nullptr) {
  measure::point_context ctx;
  ctx.board = &board;
  ctx.telemetry = source;
  const auto applied = measure::apply_point_settings(ctx, measure::setting_of_point(record_of(point)));
  measure::loop_result res;
  res.decision.reason = measure::stop_reason::converged;
  row mt;
  measure::put_settings(mt, applied);
  measure::put_window_flags(mt, applied.flags, ctx, res, applied, true, "cpu", 1);
  return jetperf::to_json(mt);
}

}  // namespace

// A point that sets nothing still records the clocks the board ran at: read back, not asked.
TEST(point_board, a_point_that_sets_nothing_records_what_the_board_reads_back) {
  jetperf::test::fake_board board;
  board.apply({std::nullopt, 2133000000, 600000000, 2200000});
  const auto applies = board.applies();
  const auto m = verdict(board, json::object());
  EXPECT_EQ(board.applies(), applies);  // read, not applied
  EXPECT_EQ(m["gpu_freq_hz"], 600000000) << m.dump();
  EXPECT_EQ(m["cpu_freq_khz"], 2200000) << m.dump();
  EXPECT_EQ(m["emc_freq_hz"], 2133000000) << m.dump();
  EXPECT_TRUE(m["power_mode"].is_null()) << m.dump();
  EXPECT_EQ(m["requested"], json::object()) << m.dump();
  EXPECT_EQ(m["read_back"], json({{"cpu_freq_khz", 2200000}, {"emc_freq_hz", 2133000000}, {"gpu_freq_hz", 600000000}}));
  EXPECT_FALSE(has_flag(m, "settings_not_applied")) << m.dump();
  EXPECT_FALSE(has_flag(m, "throttled")) << m.dump();
  // A board that reads nothing back leaves the settings null, as before.
  stubborn_emc_board blind(0);
  const auto b = verdict(blind, json::object());
  EXPECT_TRUE(b["gpu_freq_hz"].is_null()) << b.dump();
  EXPECT_EQ(b["read_back"], json::object()) << b.dump();
}

TEST(point_board, emc_read_back_below_the_request_is_flagged_throttled_like_gpu_and_cpu_clocks) {
  stubborn_emc_board board(1600000000);
  const auto m = verdict(board, {{"emc_freq_hz", 2133000000}, {"gpu_freq_hz", 900000000}});
  EXPECT_TRUE(has_flag(m, "throttled")) << m.dump();
  EXPECT_FALSE(has_flag(m, "settings_not_applied")) << m.dump();
  ASSERT_TRUE(m.contains("throttle")) << m.dump();
  const auto& t = m.at("throttle");
  EXPECT_EQ(t.size(), 1u) << "the GPU read back as asked: " << t.dump();
  EXPECT_EQ(t.at("clock.emc").at("requested"), 2133000000);
  EXPECT_EQ(t.at("clock.emc").at("read_back"), 1600000000);
  EXPECT_EQ(t.at("clock.emc").at("below"), 1);
  EXPECT_NEAR(t.at("clock.emc").at("min_ratio").get<double>(), 1600.0 / 2133.0, 1e-12);
  // The row's setting column is what the board read back; what was asked stays in "requested".
  EXPECT_EQ(m.at("emc_freq_hz"), 1600000000);
  EXPECT_EQ(m.at("requested").at("emc_freq_hz"), 2133000000);
}

TEST(point_board, emc_read_back_above_the_request_is_flagged_not_applied) {
  stubborn_emc_board board(3199000000);
  const auto m = verdict(board, {{"emc_freq_hz", 2133000000}});
  EXPECT_TRUE(has_flag(m, "settings_not_applied")) << m.dump();
  EXPECT_FALSE(has_flag(m, "throttled")) << m.dump();
  EXPECT_FALSE(m.contains("throttle")) << m.dump();
  EXPECT_EQ(m.at("emc_freq_hz"), 3199000000);
}

TEST(point_board, emc_read_back_within_rounding_of_the_request_is_not_flagged) {
  // devfreq and the BPMP round to their own table: 0.5% off is the same clock.
  stubborn_emc_board board(2130000000);
  const auto m = verdict(board, {{"emc_freq_hz", 2133000000}});
  EXPECT_FALSE(has_flag(m, "throttled")) << m.dump();
  EXPECT_FALSE(has_flag(m, "settings_not_applied")) << m.dump();
  EXPECT_FALSE(m.contains("throttle")) << m.dump();
}

TEST(point_board, emc_read_back_and_gpu_telemetry_are_reported_together) {
  stubborn_emc_board board(1600000000);
  test::fake_source src;
  src.clock = [](std::int64_t) { return 450000000.0; };  // clock.gpu at half the request
  measure::point_context ctx;
  ctx.board = &board;
  ctx.telemetry = &src;
  platform::board_setting asked;
  asked.emc_freq_hz = 2133000000;
  asked.gpu_freq_hz = 900000000;
  const auto applied = measure::apply_point_settings(ctx, asked);
  measure::loop_result res;
  res.samples = src.window(0, 10000000);  // 10 samples
  row written;
  measure::put_window_flags(written, applied.flags, ctx, res, applied, true, "cpu", 1);
  const auto mt = jetperf::to_json(written);
  const auto& flags = mt.at("flags");
  EXPECT_EQ(std::count(flags.begin(), flags.end(), "throttled"), 1) << "one flag for both clocks: " << flags.dump();
  EXPECT_EQ(mt.at("throttle").at("clock.gpu").at("samples"), 10);
  EXPECT_DOUBLE_EQ(mt.at("throttle").at("clock.gpu").at("min_ratio").get<double>(), 0.5);
  EXPECT_EQ(mt.at("throttle").at("clock.emc").at("read_back"), 1600000000);
}

TEST(point_board, a_window_stopped_on_its_projection_is_rse_unmet_with_the_projection_and_not_max_time) {
  stubborn_emc_board board(1600000000);
  measure::point_context ctx;
  ctx.board = &board;
  const auto applied = measure::apply_point_settings(ctx, platform::board_setting{});
  measure::loop_result res;
  res.decision.reason = measure::stop_reason::projected_max_time;
  res.decision.unmet = {"time_rse"};
  res.projected_rse = 0.042;
  row written;
  measure::put_window_flags(written, applied.flags, ctx, res, applied, true, "cpu", 1);
  const auto mt = jetperf::to_json(written);
  EXPECT_TRUE(has_flag(mt, "rse_unmet")) << mt.dump();
  EXPECT_FALSE(has_flag(mt, "max_time_reached")) << mt.dump();
  EXPECT_EQ(mt.at("stop_reason"), "projected_max_time");
  EXPECT_DOUBLE_EQ(mt.at("projected_rse").get<double>(), 0.042);
  EXPECT_EQ(mt.at("unmet"), json::array({"time_rse"}));
}

namespace {

// A board in its 25 W mode (CPU cap 1344 MHz, as sim:orin-nano's) that runs a CPU clock above
// the cap when asked, as a board whose kernel takes a root write over nvpmodel's cap does.
class over_cap_board final : public platform::board_settings {
 public:
  platform::board_offer offered() const override { return {}; }
  platform::mode_caps caps_of(std::int64_t mode) const override {
    platform::mode_caps caps;
    if (mode == 1) caps.cpu_freq_khz = 1344000;  // 25W; 2 MAXN_SUPER has none
    return caps;
  }
  void arm(std::int64_t) override {}
  platform::board_setting apply(const platform::board_setting& s) override {
    platform::board_setting back = s;
    back.power_mode = mode_;
    cpu_ = s.cpu_freq_khz.value_or(cpu_);
    back.cpu_freq_khz = cpu_;
    return back;
  }
  platform::board_setting read_back() const override {
    platform::board_setting back;
    back.power_mode = mode_;
    back.cpu_freq_khz = cpu_;
    return back;
  }
  void restore() override {}
  std::int64_t mode_ = 1;
  std::int64_t cpu_ = 1344000;
};

}  // namespace

// The row that said "1728 MHz, power mode 1, ok" on sim:orin-nano: a clock read back above the
// cap of the mode it ran in is not the mode's setting, whatever was asked.
TEST(point_board, a_clock_read_back_above_the_mode_cap_is_flagged_not_applied) {
  over_cap_board board;
  const auto m = verdict(board, {{"cpu_freq_khz", 1728000}});
  EXPECT_EQ(m.at("cpu_freq_khz"), 1728000);
  EXPECT_EQ(m.at("power_mode"), 1);
  EXPECT_TRUE(has_flag(m, "settings_not_applied")) << m.dump();
  EXPECT_FALSE(has_flag(m, "throttled")) << m.dump();
  // A point that sets nothing on a board running above its mode's cap says so too.
  const auto as_is = verdict(board, json::object());
  EXPECT_TRUE(has_flag(as_is, "settings_not_applied")) << as_is.dump();
  // Under the cap, or in a mode without one, nothing is flagged.
  over_cap_board capped;
  EXPECT_FALSE(has_flag(verdict(capped, {{"cpu_freq_khz", 1344000}}), "settings_not_applied"));
  over_cap_board maxn;
  maxn.mode_ = 2;
  EXPECT_FALSE(has_flag(verdict(maxn, {{"cpu_freq_khz", 1728000}}), "settings_not_applied"));
}
