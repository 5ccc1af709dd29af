// Under systemd each log line starts with its syslog priority as journald reads it ("<6>"), so
// `journalctl -p warning` filters; "<info>", which spdlog's "<%l>" wrote, it does not read.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include "logging.hpp"

namespace jetperf::daemon {
namespace {

std::string lines_of(bool journal) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
  spdlog::logger logger("test", sink);
  logger.set_formatter(log_formatter(journal));
  logger.set_level(spdlog::level::trace);
  logger.info("started");
  logger.warn("a rail is missing");
  logger.error("restore failed");
  logger.critical("gone");
  logger.debug("detail");
  return out.str();
}

TEST(logging, journald_lines_carry_their_syslog_priority) {
  EXPECT_EQ(lines_of(true), "<6>started\n<4>a rail is missing\n<3>restore failed\n<2>gone\n<7>detail\n");
  // A terminal keeps a timestamp and the level's name.
  const auto plain = lines_of(false);
  EXPECT_NE(plain.find(" [info] started\n"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("<6>"), std::string::npos) << plain;
}

}  // namespace
}  // namespace jetperf::daemon
