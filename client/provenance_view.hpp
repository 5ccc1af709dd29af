#pragma once
// A job's provenance read for a person: which board (simulated or real, and what a simulated
// board's numbers stand for), then jetperf, the power sensor and the sampling achieved.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// "measured on sim:orin-agx (AGX Orin, L4T 36.3.0): simulated; ...\n"; "" for an empty provenance.
std::string provenance_board_line(const nlohmann::json& provenance);

/// The board line, then "jetperf ...", "power: ..." and "backends: ..." lines; "" when empty.
std::string format_provenance(const nlohmann::json& provenance);

}  // namespace jetperf::client
