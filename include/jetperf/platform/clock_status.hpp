#pragma once
// GET /v1/clocks's facts from the controller: the settings now, whether anything waits to be put
// back, and the snapshot of the clocks as they are (the same form the journal keeps).
#include <jetperf/platform/board_state.hpp>
#include <jetperf/platform/current_settings.hpp>

namespace jetperf::platform {

struct clock_status {
  current_settings current;
  bool armed = false;  ///< a job holds the board, or the API changed it
  board_state state;   ///< without power mode or sensors: the clocks, cores, EMC and fan
};

}  // namespace jetperf::platform
