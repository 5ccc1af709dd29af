#include <jetperf/measure/stop_rule.hpp>

#include <algorithm>
#include <limits>

#include <gtest/gtest.h>

using namespace jetperf::measure;

namespace {
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
stop_criteria criteria() {
  stop_criteria c;
  c.min_time_s = 1;
  c.max_time_s = 5;
  c.min_samples = 10;
  c.target_rse_time = 0.01;
  c.target_rse_power = 0.02;
  return c;
}
}  // namespace

TEST(stop_rule, converges_only_when_every_criterion_is_met) {
  const stop_rule r(criteria());
  EXPECT_TRUE(r.evaluate(1.5, 20, 0.005, 0.01).stop);
  EXPECT_EQ(r.evaluate(1.5, 20, 0.005, 0.01).reason, stop_reason::converged);
  auto d = r.evaluate(0.5, 20, 0.005, 0.01);
  EXPECT_FALSE(d.stop);
  EXPECT_TRUE(has(d.unmet, "min_time"));
  d = r.evaluate(1.5, 5, 0.005, 0.01);
  EXPECT_FALSE(d.stop);
  EXPECT_TRUE(has(d.unmet, "min_samples"));
  d = r.evaluate(1.5, 20, 0.05, 0.01);
  EXPECT_TRUE(has(d.unmet, "time_rse"));
  d = r.evaluate(1.5, 20, 0.005, 0.03);
  EXPECT_FALSE(d.stop);
  EXPECT_EQ(d.unmet, std::vector<std::string>{"power_rse"});
}

TEST(stop_rule, without_a_latency_target_latency_is_no_criterion_and_never_unmet) {
  auto c = criteria();
  c.target_rse_time = std::nullopt;
  const stop_rule r(c);
  const auto d = r.evaluate(1.5, 20, 0.14, 0.01);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, stop_reason::converged);
  EXPECT_TRUE(d.unmet.empty());
  // Named, it must be met before "converged"; at max_time it is listed as unmet.
  c.target_rse_time = 0.01;
  EXPECT_FALSE(stop_rule(c).evaluate(1.5, 20, 0.14, 0.01).stop);
  EXPECT_EQ(stop_rule(c).evaluate(5.0, 20, 0.14, 0.01).unmet, std::vector<std::string>{"time_rse"});
}

TEST(stop_rule, no_telemetry_means_no_power_criterion) {
  EXPECT_TRUE(stop_rule(criteria()).evaluate(1.5, 20, 0.005, std::nullopt).stop);
}

TEST(stop_rule, timeout_reports_the_unmet_criterion) {
  const auto d = stop_rule(criteria()).evaluate(5.0, 100, 0.001, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, stop_reason::max_time);
  EXPECT_EQ(d.unmet, std::vector<std::string>{"power_rse"});
}

TEST(stop_rule, fixed_duration_ignores_precision) {
  auto c = criteria();
  c.fixed_duration_s = 2.0;
  const stop_rule r(c);
  EXPECT_FALSE(r.evaluate(1.9, 100, 1.0, 1.0).stop);
  const auto d = r.evaluate(2.0, 3, 1.0, 1.0);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, stop_reason::fixed_duration);
}
