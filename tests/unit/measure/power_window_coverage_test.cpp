// A power window longer than the telemetry holds must not pass for the whole window: the point
// is flagged power_window_truncated and says how many seconds its power figures cover.
#include <jetperf/store/cell_json.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/point_board.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>

#include "support/fake_sources.hpp"

using namespace jetperf;
using nlohmann::json;

namespace {

// fake_source that keeps only its newest `keep_ns`, like a ring buffer without an archive.
class forgetful_source final : public telemetry::sample_source {
 public:
  explicit forgetful_source(std::int64_t keep_ns) : keep_ns_(keep_ns) {}
  std::vector<telemetry::channel_info> channels() const override { return inner.channels(); }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    const auto held = complete_since_ns();
    auto all = inner.window(std::max(from_ns, held), to_ns);
    return all;
  }
  std::int64_t complete_since_ns() const override { return monotonic_ns() - keep_ns_; }
  std::optional<int> total_power_channel() const override { return 0; }
  double update_period_s() const override { return inner.update_period_s(); }

  test::fake_source inner;

 private:
  std::int64_t keep_ns_;
};

measure::loop_options fixed_window(double seconds) {
  measure::loop_options o;
  o.stop.fixed_duration_s = seconds;
  o.boundary_s = 0.005;
  return o;
}

measure::timed_iteration short_sleep() {
  return measure::steady_clock_iteration([] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
}

json flags_of(const measure::loop_result& r, telemetry::sample_source& src) {
  measure::point_context ctx;
  ctx.telemetry = &src;
  row mt;
  measure::put_window_flags(mt, {}, ctx, r, {}, true, "cpu", 1);
  return jetperf::to_json(mt);
}

bool has_flag(const json& m, const std::string& f) {
  const auto& flags = m.at("flags");
  return std::find(flags.begin(), flags.end(), f) != flags.end();
}

}  // namespace

TEST(power_window_coverage, a_window_the_telemetry_held_whole_is_not_flagged) {
  test::fake_source src;
  const auto r = measure::measurement_loop(fixed_window(0.05), &src).run(short_sleep());
  EXPECT_GT(r.power_window_s, 0.0);
  EXPECT_EQ(r.power_covered_s, r.power_window_s);
  const auto m = flags_of(r, src);
  EXPECT_FALSE(has_flag(m, "power_window_truncated")) << m.dump();
  EXPECT_FALSE(m.contains("power_window_covered_s"));
}

TEST(power_window_coverage, a_window_longer_than_the_telemetry_holds_is_flagged_with_what_it_covers) {
  // The source keeps 30 ms; the window is at least 200 ms long (its two 5 ms edges cut off).
  forgetful_source src(30'000'000);
  const auto r = measure::measurement_loop(fixed_window(0.2), &src).run(short_sleep());
  EXPECT_GE(r.power_window_s, 0.19);
  // The coverage is asked after the read, and the source only forgets more: never above 30 ms.
  EXPECT_LE(r.power_covered_s, 0.03);
  EXPECT_GE(r.power_covered_s, 0.0);
  const auto m = flags_of(r, src);
  EXPECT_TRUE(has_flag(m, "power_window_truncated")) << m.dump();
  EXPECT_DOUBLE_EQ(m.at("power_window_covered_s").get<double>(), r.power_covered_s);
  // What the power figures rest on is the tail alone: fewer samples than the window had ticks.
  ASSERT_TRUE(r.power);
  EXPECT_LE(r.power->total_samples, 31u);
}
