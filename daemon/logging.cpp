#include "logging.hpp"

#include <cstdlib>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace jetperf::daemon {

void setup_logging(spdlog::level::level_enum level) {
  auto logger = spdlog::stderr_logger_mt("jetperfd");
  // journald adds its own timestamp; a terminal gets one from us.
  if (std::getenv("JOURNAL_STREAM") != nullptr) {
    logger->set_pattern("<%l> %v");
  } else {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e [%l] %v");
  }
  logger->set_level(level);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace jetperf::daemon
