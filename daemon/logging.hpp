#pragma once
// spdlog setup for jetperfd: one stderr logger (journald captures it under systemd).
#include <spdlog/common.h>

namespace jetperf::daemon {

void setup_logging(spdlog::level::level_enum level);

}  // namespace jetperf::daemon
