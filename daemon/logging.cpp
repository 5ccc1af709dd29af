#include "logging.hpp"

#include <cstdlib>
#include <memory>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace jetperf::daemon {

int journal_priority(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::critical: return 2;  // LOG_CRIT
    case spdlog::level::err: return 3;       // LOG_ERR
    case spdlog::level::warn: return 4;      // LOG_WARNING
    case spdlog::level::info: return 6;      // LOG_INFO
    default: return 7;                       // LOG_DEBUG (trace and debug)
  }
}

namespace {

// "%*": the line's syslog priority digit, which journald reads from a "<N>" prefix (spdlog's
// "<%l>" gave "<info>", which it does not, so `journalctl -p warning` filtered nothing).
class priority_flag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    dest.push_back(static_cast<char>('0' + journal_priority(msg.level)));
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<priority_flag>(); }
};

}  // namespace

std::unique_ptr<spdlog::formatter> log_formatter(bool journal) {
  auto f = std::make_unique<spdlog::pattern_formatter>();
  // journald adds its own timestamp; a terminal gets one from us.
  if (journal) f->add_flag<priority_flag>('*').set_pattern("<%*>%v");
  else f->set_pattern("%Y-%m-%dT%H:%M:%S.%e [%l] %v");
  return f;
}

void setup_logging(spdlog::level::level_enum level) {
  auto logger = spdlog::stderr_logger_mt("jetperfd");
  logger->set_formatter(log_formatter(std::getenv("JOURNAL_STREAM") != nullptr));
  logger->set_level(level);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace jetperf::daemon
