// The board and telemetry keys: defaults, file and flag spelling, range checks.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <support/temp_dir.hpp>

#include "daemon_config.hpp"
#include "retention_worker.hpp"
#include "telemetry_setup.hpp"

namespace jetperf::daemon {
namespace {

TEST(daemon_config_board_keys, defaults) {
  const auto cl = parse_command_line({"--config", "/dev/null"});
  EXPECT_EQ(cl.config.sim_profile, "orin-agx");
  EXPECT_EQ(cl.config.sample_period_ms, 10u);
  EXPECT_EQ(cl.config.fast_sample_period_ms, 1u);
  EXPECT_EQ(cl.config.history_period_ms, 1000u);
  EXPECT_EQ(cl.config.history_retention_h, 24u);
  EXPECT_EQ(cl.config.thermal_limit_c, 95u);
}

TEST(daemon_config_board_keys, file_then_flags) {
  jetperf::test::temp_dir dir;
  const std::string conf = dir.file("j.conf");
  std::ofstream(conf) << "sim_profile = nano\nsample_period_ms = 5\nhistory_period_ms = 500\n"
                         "history_retention_h = 2\nthermal_limit_c = 0\n";
  const auto cl = parse_command_line(
      {"--config", conf, "--sample-period-ms", "20", "--sim-profile=tx2", "--idle-sample-period-ms", "250",
       "--fast-sample-period-ms", "2"});
  EXPECT_EQ(cl.config.idle_sample_period_ms, 250u);
  EXPECT_EQ(cl.config.fast_sample_period_ms, 2u);
  EXPECT_EQ(cl.config.sim_profile, "tx2");
  EXPECT_EQ(cl.config.sample_period_ms, 20u);
  EXPECT_EQ(cl.config.history_period_ms, 500u);
  EXPECT_EQ(cl.config.history_retention_h, 2u);
  EXPECT_EQ(cl.config.thermal_limit_c, 0u);
}

TEST(daemon_config_board_keys, rejects_bad_values) {
  const std::vector<std::vector<std::string>> bad = {
      {"--sample-period-ms", "0"},     {"--sample-period-ms", "1001"}, {"--history-period-ms", "5"},
      {"--history-retention-h", "0"},  {"--thermal-limit-c", "151"},   {"--thermal-limit-c", "hot"},
      {"--sim-profile", "Orin AGX"},   {"--sim-profile", ""},
      {"--sample-period-ms", "100", "--history-period-ms", "50"},
      {"--idle-sample-period-ms", "5"},  // below the 10 ms sample period
      {"--fast-sample-period-ms", "0"},
      {"--fast-sample-period-ms", "20"},  // above the 10 ms sample period
      {"--idle-sample-period-ms", "2000"}};  // above the 1000 ms history period
  for (auto args : bad) {
    args.insert(args.begin(), {"--config", "/dev/null"});
    EXPECT_THROW(parse_command_line(args), config_error) << args[2] << " " << args[3];
  }
  try {
    parse_command_line({"--config", "/dev/null", "--idle-sample-period-ms", "2000"});
    ADD_FAILURE();
  } catch (const config_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "idle_sample_period_ms: 2000 must lie between sample_period_ms 10 and history_period_ms 1000");
  }
  try {
    parse_command_line({"--config", "/dev/null", "--thermal-limit-c", "151"});
  } catch (const config_error& e) {
    EXPECT_EQ(std::string(e.what()), "--thermal-limit-c: value: '151' is out of range 0..150");
  }
}

TEST(daemon_config_board_keys, board_name) {
  EXPECT_EQ(parse_command_line({"--config", "/dev/null"}).config.board_name, "");
  EXPECT_EQ(parse_command_line({"--config", "/dev/null", "--board-name", "orin-7.lab"}).config.board_name, "orin-7.lab");
  for (const char* bad : {"", "two words", "a\"b", "x{y}"})
    EXPECT_THROW(parse_command_line({"--config", "/dev/null", "--board-name", bad}), config_error) << bad;
  EXPECT_NE(usage_text().find("--board-name NAME"), std::string::npos);
}

TEST(telemetry_setup, sampler_config_follows_the_periods) {
  daemon_config c;
  c.sample_period_ms = 10;
  c.history_period_ms = 1000;
  auto s = sampler_config_of(c);
  EXPECT_EQ(s.period_ns, 10'000'000);
  EXPECT_EQ(s.history_period_ns, 1'000'000'000);
  EXPECT_EQ(s.idle_period_ns, 100'000'000);  // idle: 100 ms by default
  EXPECT_EQ(s.fast_period_ns, 1'000'000);     // what a point may ask for its power sensors
  c.sample_period_ms = 3;
  c.history_period_ms = 10;
  s = sampler_config_of(c);
  EXPECT_EQ(s.period_ns, 3'000'000);
  EXPECT_EQ(s.history_period_ns, 10'000'000);
  EXPECT_EQ(s.idle_period_ns, 10'000'000);  // never longer than the history period
  c.sample_period_ms = 500;
  c.history_period_ms = 1000;
  EXPECT_EQ(sampler_config_of(c).idle_period_ns, 500'000'000);  // never shorter than the tick
  c.idle_sample_period_ms = 1000;
  EXPECT_EQ(sampler_config_of(c).idle_period_ns, 1'000'000'000);
  c.idle_sample_period_ms = 0;
  c.sample_period_ms = 3;
  c.history_period_ms = 10;
  // The sensors' update period as they state it, shorter than the tick too (a point that places
  // the updates polls faster: the sensor card, in_context).
  EXPECT_DOUBLE_EQ(sampler_config_of(c).update_period_s, 0.0);
  EXPECT_DOUBLE_EQ(sampler_config_of(c, 0.14).update_period_s, 0.14);
  EXPECT_DOUBLE_EQ(sampler_config_of(c, 0.001).update_period_s, 0.001);
}

}  // namespace
}  // namespace jetperf::daemon

namespace jetperf::daemon {
namespace {

TEST(daemon_config_retention_keys, defaults_file_flags_and_refusals) {
  auto cl = parse_command_line({"--config", "/dev/null"});
  EXPECT_DOUBLE_EQ(cl.config.retention_full_days, 7);
  EXPECT_DOUBLE_EQ(cl.config.retention_days, 90);
  jetperf::test::temp_dir dir;
  const std::string conf = dir.file("j.conf");
  std::ofstream(conf) << "retention_full_days = 2.5\nretention_days = 30\n";
  cl = parse_command_line({"--config", conf, "--retention-full-days", "0.0005"});
  EXPECT_DOUBLE_EQ(cl.config.retention_full_days, 0.0005);  // a fraction of a day, as the sim test uses
  EXPECT_DOUBLE_EQ(cl.config.retention_days, 30);
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--retention-full-days", "0"},
                                                               {"--retention-full-days", "week"},
                                                               {"--retention-days", "-1"},
                                                               {"--retention-days", "5x"},
                                                               {"--retention-full-days", "10", "--retention-days", "5"}}) {
    auto args = bad;
    args.insert(args.begin(), {"--config", "/dev/null"});
    EXPECT_THROW(parse_command_line(args), config_error) << bad[0] << " " << bad[1];
  }
  try {
    parse_command_line({"--config", "/dev/null", "--retention-full-days", "10", "--retention-days", "5"});
    ADD_FAILURE();
  } catch (const config_error& e) {
    EXPECT_NE(std::string(e.what()).find("retention_days"), std::string::npos) << e.what();
  }
}

TEST(retention_worker_period, a_tenth_of_the_full_rate_days_within_a_second_and_an_hour) {
  EXPECT_EQ(retention_worker::period_for({7, 90}), 3600LL * 1'000'000'000);
  EXPECT_EQ(retention_worker::period_for({0.0001, 1}), 1'000'000'000);
  EXPECT_EQ(retention_worker::period_for({0.01, 1}), static_cast<std::int64_t>(86.4 * 1e9));
}

}  // namespace
}  // namespace jetperf::daemon
