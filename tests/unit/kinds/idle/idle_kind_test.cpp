#include <gtest/gtest.h>

#include "support/json_workload.hpp"

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/kinds/idle/idle_kind.hpp>

#include "../declared_columns.hpp"

using namespace jetperf;
using nlohmann::json;

namespace {

std::string field_of(const json& spec) {
  auto w = jetperf::test::json_workload(kinds::make_idle_kind());
  try {
    w->normalize(spec, {});
  } catch (const validation_error& e) {
    return e.field();
  }
  return "<accepted>";
}

// A sample source with a known constant power on two rails and a computed total.
class constant_power final : public telemetry::sample_source {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"rail.VDD_CPU", "W", telemetry::channel_kind::power, "test"},
            {"power.total", "W", telemetry::channel_kind::power, "test"},
            {"temp.CPU", "C", telemetry::channel_kind::temperature, "test"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from, std::int64_t to) const override {
    std::vector<telemetry::sample> out;
    for (auto t = from; t <= to; t += 1000000) {
      out.push_back({0, t, 2.0});
      out.push_back({1, t, 7.5});
      out.push_back({2, t, 45.0});
    }
    return out;
  }
  std::optional<int> total_power_channel() const override { return 1; }
  double update_period_s() const override { return 0.001; }
};

}  // namespace

TEST(idle_workload, defaults_are_filled_in) {
  auto w = jetperf::test::json_workload(kinds::make_idle_kind());
  auto spec = w->normalize(json::object(), {});
  EXPECT_DOUBLE_EQ(spec["duration_s"].get<double>(), 1.0);
  EXPECT_EQ(spec["repeats"].get<int>(), 1);
  auto points = w->expand(w->normalize({{"repeats", 4}, {"duration_s", 0.5}}, {}));
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[3]["repeat"].get<int>(), 3);
  const json idle4 = {{"duration_s", 0.5}, {"repeats", 4}};
  EXPECT_EQ(w->estimate_points_s(idle4, w->expand(idle4), {}), std::vector<double>(4, 0.5));
}

TEST(idle_workload, bad_specs_name_their_field) {
  EXPECT_EQ(field_of({{"duration_s", "1"}}), "spec.duration_s");
  EXPECT_EQ(field_of({{"duration_s", -1}}), "spec.duration_s");
  EXPECT_EQ(field_of({{"duration_s", 0}}), "spec.duration_s");
  EXPECT_EQ(field_of({{"duration_s", 4000}}), "spec.duration_s");
  EXPECT_EQ(field_of({{"repeats", 0}}), "spec.repeats");
  EXPECT_EQ(field_of({{"repeats", 1.5}}), "spec.repeats");
  EXPECT_EQ(field_of({{"repeats", 10001}}), "spec.repeats");
  EXPECT_EQ(field_of({{"repeats", true}}), "spec.repeats");
  EXPECT_EQ(field_of({{"colour", "red"}}), "spec.colour");
  EXPECT_EQ(field_of({{"repeats", 2.0}, {"duration_s", 0.01}}), "<accepted>");
}

TEST(idle_workload, measures_mean_power_of_the_window) {
  auto w = jetperf::test::json_workload(kinds::make_idle_kind());
  constant_power source;
  measure::point_context ctx;
  ctx.telemetry = &source;
  auto spec = w->normalize({{"duration_s", 0.02}}, {});
  auto r = w->run_point(ctx, spec, {{"repeat", 0}});
  EXPECT_EQ(r.status, "ok");
  EXPECT_GE(r.t_end_ns - r.t_start_ns, 20000000);
  EXPECT_DOUBLE_EQ(jetperf::to_json(r.metrics)["power_w"].get<double>(), 7.5);
  EXPECT_DOUBLE_EQ(jetperf::to_json(r.metrics)["rail_VDD_CPU_w"].get<double>(), 2.0);
  EXPECT_GE(jetperf::to_json(r.metrics)["samples"].get<int>(), 20);
  EXPECT_FALSE(jetperf::to_json(r.metrics).contains("temp.CPU_w"));
  EXPECT_EQ(test::undeclared_keys(*w, r.metrics), "");
}

TEST(idle_workload, cancellation_ends_the_point_early) {
  auto w = jetperf::test::json_workload(kinds::make_idle_kind());
  std::atomic<bool> cancel{true};
  measure::point_context ctx;
  ctx.cancel = &cancel;
  const auto t0 = monotonic_ns();
  w->run_point(ctx, w->normalize({{"duration_s", 30}}, {}), {{"repeat", 0}});
  EXPECT_LT(monotonic_ns() - t0, 5000000000LL);
}
