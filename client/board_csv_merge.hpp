#pragma once
// `jetperf fleet results`: every board's CSV export of the same jobs in one table. Boards differ
// in their rails (one rail_<NAME>_w column each), so the merged header is the union of the
// boards' headers in order of first appearance, after a leading `board` column; a board's row
// leaves the columns it lacks empty (CSV's "missing").
#include <string>
#include <utility>
#include <vector>

namespace jetperf::client {

/// RFC 4180 records: quoted cells may hold commas, quotes ("") and line breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

/// One cell, quoted when it holds a comma, a quote or a line break.
std::string csv_cell(const std::string& value);

/// (board name, that board's CSV with a header line) in board order -> one CSV with `board` first.
std::string merge_board_csv(const std::vector<std::pair<std::string, std::string>>& boards);

}  // namespace jetperf::client
