#pragma once
// spdlog setup for jetperfd: one stderr logger (journald captures it under systemd, with each
// line's priority from its "<N>" prefix).
#include <memory>

#include <spdlog/common.h>
#include <spdlog/formatter.h>

namespace jetperf::daemon {

/// The syslog priority journald files a line of `level` under (2 crit .. 7 debug).
int journal_priority(spdlog::level::level_enum level);
/// The lines' form: "<N>message" for journald (JOURNAL_STREAM set), else a timestamp and level.
std::unique_ptr<spdlog::formatter> log_formatter(bool journal);

void setup_logging(spdlog::level::level_enum level);

}  // namespace jetperf::daemon
