#pragma once
// Results as CSV (RFC 4180): a header line of the columns, one line per row, CRLF line ends,
// fields quoted when they contain a comma, quote, CR or LF; numbers in their shortest
// round-trip form (integer columns integral); an empty cell only for a missing value; lists as
// their items joined with ';', objects as key=value pairs joined with ';'. Text that a
// spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a leading apostrophe.
#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/api/result_table.hpp>
#include <jetperf/common/csv_quote.hpp>

namespace jetperf::api {

std::string write_results_csv(const result_table& table);
/// One cell of a column of `type`.
std::string csv_cell(const nlohmann::json& value, column_type type);
/// One cell's text, quoted as RFC 4180 requires.
std::string csv_field(const nlohmann::json& value);
/// csv_quote (text as one cell) is jetperf::csv_quote, in common: the trace writers use it too.
using jetperf::csv_quote;

}  // namespace jetperf::api
