#pragma once
// A job's provenance read for a person: which board (simulated or real, and what a simulated
// board's numbers stand for), then jetperf, the power sensor and the sampling achieved.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// "measured on sim:orin-agx (AGX Orin, L4T 36.3.0): simulated; ...\n"; "" for an empty provenance.
/// `rows_speed_not_simulated`: some of the rows shown say speed_not_simulated (a command job's
/// program, a refused CPU share), so the line does not claim the speed followed the clock.
std::string provenance_board_line(const nlohmann::json& provenance, bool rows_speed_not_simulated = false);

/// The board line, then "jetperf ...", "power: ..." and "backends: ..." lines; "" when empty.
std::string format_provenance(const nlohmann::json& provenance);

}  // namespace jetperf::client
