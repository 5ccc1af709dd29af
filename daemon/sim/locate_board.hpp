#pragma once
// How the simulator's programs find their board: $JETPERF_SIM_DIR, else the directory above
// their own executable (<dir>/bin/<program> -> <dir>).
#include <string>

namespace jetperf::sim {

/// The board directory; throws jetperf::not_found when neither source names a board.
std::string locate_board_dir();

}  // namespace jetperf::sim
