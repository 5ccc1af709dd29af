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
  EXPECT_TRUE(has_line(text, "jetperf_rail_power_watts{rail=\"VDD_IN\",role=\"total\"} 5.25"));
  EXPECT_TRUE(has_line(text, "jetperf_rail_power_watts{rail=\"odd\\\"name\\\\\",role=\"other\"} 1"));
  EXPECT_TRUE(has_line(text, "jetperf_power_total_watts 5.25"));
  EXPECT_TRUE(has_line(text, "jetperf_clock_hz{domain=\"gpu\"} 918000000"));
  EXPECT_TRUE(has_line(text, "jetperf_temperature_celsius{zone=\"tj\"} 44.343"));
  EXPECT_TRUE(has_line(text, "jetperf_utilisation_ratio{domain=\"gpu\"} 0.567"));
  EXPECT_EQ(text.find("zone=\"CV0\""), std::string::npos);
  EXPECT_TRUE(has_line(text, "jetperf_sampler_rate_hz 999.5"));
  EXPECT_TRUE(has_line(text, "jetperf_sampler_jitter_seconds{stat=\"p99\"} 0.00012"));
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

TEST(prometheus, energy_counters_job_series_and_build_info) {
  std::vector<channel_info> ch = {{"rail.VDD_GPU", "W", channel_kind::power, ""},
                                  {"power.total", "W", channel_kind::power, ""},
                                  {"clock.gpu", "Hz", channel_kind::clock, ""}};
  prometheus_energy energy;
  energy.totals.channel_joules = {12.5, 40.25, 0};
  energy.totals.total_channel = 1;
  energy.jobs.push_back({41, "idle", 30.5, 1.0});
  energy.jobs.push_back({42, "gemm", 2.0, 0.25});
  prometheus_build_info build{"0.1.0", "orin-7", "AGX Orin", "", true};
  const std::string text =
      render_prometheus(ch, {5.0, 9.0, 1e9}, 1, sampler_health{}, prometheus_job_state{}, energy, build);
  EXPECT_TRUE(has_line(text, "# TYPE jetperf_rail_energy_joules_total counter"));
  EXPECT_TRUE(has_line(text, "jetperf_rail_energy_joules_total{rail=\"VDD_GPU\",role=\"gpu\"} 12.5"));
  EXPECT_TRUE(has_line(text, "jetperf_energy_joules_total 40.25"));
  // power.total is not a rail: it is the module total only.
  EXPECT_EQ(text.find("rail=\"total\""), std::string::npos);
  EXPECT_TRUE(has_line(text, "# TYPE jetperf_job_energy_joules_total counter"));
  EXPECT_TRUE(has_line(text, "jetperf_job_energy_joules_total{job_id=\"41\",kind=\"idle\"} 30.5"));
  EXPECT_TRUE(has_line(text, "jetperf_job_energy_joules_total{job_id=\"42\",kind=\"gemm\"} 2"));
  EXPECT_TRUE(has_line(text, "jetperf_job_progress_ratio{job_id=\"42\",kind=\"gemm\"} 0.25"));
  // With a timestamp, every energy counter states the instant it is exact at.
  energy.timestamp_ms = 1700000000123;
  const std::string stamped = render_prometheus(ch, {5.0, 9.0, 1e9}, 1, sampler_health{}, prometheus_job_state{}, energy);
  EXPECT_TRUE(has_line(stamped, "jetperf_rail_energy_joules_total{rail=\"VDD_GPU\",role=\"gpu\"} 12.5 1700000000123"));
  EXPECT_TRUE(has_line(stamped, "jetperf_energy_joules_total 40.25 1700000000123"));
  EXPECT_TRUE(has_line(stamped, "jetperf_job_energy_joules_total{job_id=\"41\",kind=\"idle\"} 30.5 1700000000123"));
  EXPECT_TRUE(has_line(stamped, "jetperf_rail_power_watts{rail=\"VDD_GPU\",role=\"gpu\"} 5"));
  EXPECT_TRUE(has_line(text, "jetperf_build_info{version=\"0.1.0\",board=\"orin-7\",model=\"AGX Orin\",l4t=\"\","
                             "simulated=\"true\"} 1"));
}

TEST(prometheus, throttle_state_per_clock_against_its_floor) {
  const std::vector<prometheus_clock_floor> floors = {
      {"gpu", 306e6, 624.75e6},      // held far below its floor: throttled
      {"cpu0", 1497.6e6, 1497.6e6},  // at its floor
      {"emc", 3187e6, 3199e6},       // within 2% of a locked rate
  };
  const auto text = render_prometheus({}, {}, std::nullopt, sampler_health{}, prometheus_job_state{}, {}, std::nullopt, floors);
  EXPECT_NE(text.find("# TYPE jetperf_clock_throttled gauge\n"), std::string::npos) << text;
  EXPECT_NE(text.find("jetperf_clock_throttled{domain=\"gpu\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("jetperf_clock_throttled{domain=\"cpu0\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("jetperf_clock_throttled{domain=\"emc\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("jetperf_clock_floor_hz{domain=\"gpu\"} 624750000\n"), std::string::npos) << text;
  // Without a board's clock state there is no throttle series at all (not a 0 that means "fine").
  EXPECT_EQ(render_prometheus({}, {}, std::nullopt, sampler_health{}, prometheus_job_state{}).find("jetperf_clock_throttled"),
            std::string::npos);
}

TEST(prometheus, without_energy_no_energy_series) {
  std::vector<channel_info> ch = {{"rail.VDD_GPU", "W", channel_kind::power, ""}};
  const std::string text = render_prometheus(ch, {5.0}, 0, sampler_health{}, prometheus_job_state{});
  EXPECT_EQ(text.find("energy"), std::string::npos);
  EXPECT_EQ(text.find("jetperf_build_info"), std::string::npos);
}

}  // namespace
}  // namespace jetperf::telemetry
