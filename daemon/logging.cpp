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

// "<N>message": the line's syslog priority, which journald reads from the prefix (spdlog's
// "<%l>" gave "<info>", which it does not, so `journalctl -p warning` filtered nothing). A
// formatter of its own rather than a custom pattern flag, which spdlog before 1.6 (Ubuntu 20.04,
// JetPack 5) lacks.
class journal_formatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const char prefix[] = {'<', static_cast<char>('0' + journal_priority(msg.level)), '>'};
    dest.append(prefix, prefix + sizeof prefix);
    dest.append(msg.payload.data(), msg.payload.data() + msg.payload.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<journal_formatter>(); }
};

}  // namespace

std::unique_ptr<spdlog::formatter> log_formatter(bool journal) {
  // journald adds its own timestamp; a terminal gets one from us.
  if (journal) return std::make_unique<journal_formatter>();
  return std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%e [%l] %v");
}

void setup_logging(spdlog::level::level_enum level) {
  auto logger = spdlog::stderr_logger_mt("jetperfd");
  logger->set_formatter(log_formatter(std::getenv("JOURNAL_STREAM") != nullptr));
  logger->set_level(level);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace jetperf::daemon
