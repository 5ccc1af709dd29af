#include <jetperf/telemetry/prometheus.hpp>

#include <gtest/gtest.h>

namespace jetperf::telemetry {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

TEST(prometheus, renders_channels_health_and_job) {
  std::vector<channel_info> ch = {{"rail.VDD_IN", "W", channel_kind::power, ""},
                                  {"rail.odd\"name\\", "W", channel_kind::power, ""},
                                  {"clock.gpu", "Hz", channel_kind::clock, ""},
                                  {"temp.tj", "C", channel_kind::temperature, ""},
                                  {"util.gpu", "%", channel_kind::utilisation, ""},
                                  {"temp.CV0", "C", channel_kind::temperature, ""}};
  std::vector<std::optional<double>> v = {5.25, 1.0, 918e6, 44.343, 56.7, std::nullopt};
  sampler_health h;
  h.running = true;
  h.achieved_rate_hz = 999.5;
  h.jitter_p99_s = 0.00012;
  h.missed_ticks = 3;
  prometheus_job_state job;
  job.running = true;
  job.job_id = 42;
  job.kind = "gemm";
  std::string text = render_prometheus(ch, v, 0, h, job);
  EXPECT_TRUE(has_line(text, "# TYPE jetperf_rail_power_watts gauge"));
  EXPECT_TRUE(has_line(text, "# HELP jetperf_rail_power_watts Power of one rail in watts."));
  EXPECT_TRUE(has_line(text, "jetperf_rail_power_watts{rail=\"VDD_IN\"} 5.25"));
  EXPECT_TRUE(has_line(text, "jetperf_rail_power_watts{rail=\"odd\\\"name\\\\\"} 1"));
  EXPECT_TRUE(has_line(text, "jetperf_power_total_watts 5.25"));
  EXPECT_TRUE(has_line(text, "jetperf_clock_hz{domain=\"gpu\"} 918000000"));
  EXPECT_TRUE(has_line(text, "jetperf_temperature_celsius{zone=\"tj\"} 44.343"));
  EXPECT_TRUE(has_line(text, "jetperf_utilisation_ratio{domain=\"gpu\"} 0.567"));
  EXPECT_EQ(text.find("zone=\"CV0\""), std::string::npos);
  EXPECT_TRUE(has_line(text, "jetperf_sampler_rate_hz 999.5"));
  EXPECT_TRUE(has_line(text, "jetperf_sampler_jitter_seconds{quantile=\"0.99\"} 0.00012"));
  EXPECT_TRUE(has_line(text, "jetperf_sampler_missed_ticks_total 3"));
  EXPECT_TRUE(has_line(text, "jetperf_job_running{job_id=\"42\",kind=\"gemm\"} 1"));
  // One HELP/TYPE per family even with several series.
  std::size_t first = text.find("# TYPE jetperf_rail_power_watts");
  EXPECT_EQ(text.find("# TYPE jetperf_rail_power_watts", first + 1), std::string::npos);
  EXPECT_EQ(prometheus_escape_label("a\nb"), "a\\nb");
}

TEST(prometheus, idle_job) {
  std::string text = render_prometheus({}, {}, std::nullopt, sampler_health{}, prometheus_job_state{});
  EXPECT_TRUE(has_line(text, "jetperf_job_running 0"));
  EXPECT_EQ(text.find("jetperf_power_total_watts"), std::string::npos);
}

}  // namespace
}  // namespace jetperf::telemetry
