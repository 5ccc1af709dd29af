#pragma once
// tegrastats text -> typed records, for every line form in the Jetson README section 7.1.
// A hand-written scanner over string_view: no regex, no allocation beyond the record itself.
// Tolerant: a field it does not understand is kept in record.unparsed and the scan goes on; a line
// is an error only when no field at all could be read. The JSON form of a record is the client's
// (client/tegrastats_json.hpp).
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <jetperf/tegrastats/tegrastats_record.hpp>
#include <jetperf/tegrastats/tegrastats_unknown_tokens.hpp>

namespace jetperf::telemetry {

/// A line that could not be parsed: 1-based line number and the reason.
struct tegrastats_parse_error {
  std::size_t line = 0;
  std::string message;
  std::string text;  ///< the offending line (truncated to 200 characters)
};

struct tegrastats_parse_result {
  std::vector<tegrastats_record> records;
  std::vector<std::size_t> record_lines;  ///< 1-based line number of each record
  std::vector<tegrastats_parse_error> errors;
  std::size_t lines = 0;            ///< non-blank lines read: records.size() + errors.size()
  std::size_t unparsed_fields = 0;  ///< entries of record.unparsed over all records
  /// The unparsed fields by name (tegrastats_token_name), counted in first-seen order.
  tegrastats_unknown_tokens unparsed_names;
};

/// Parses one line. Throws validation_error (field "line") naming the first token it could not
/// read when no field at all could be read.
tegrastats_record parse_tegrastats_line(std::string_view line);
/// As above without exceptions: false and `error` filled when the line holds no tegrastats field.
/// `out` may be reused from line to line: a steady stream then parses without allocating.
bool try_parse_tegrastats_line(std::string_view line, tegrastats_record& out, std::string& error);

/// Every line of a stream; blank lines are skipped, every other line that holds no tegrastats
/// field becomes an error, and unparsed fields are counted.
tegrastats_parse_result parse_tegrastats_stream(std::istream& in);

/// The name an unparsed field is counted and logged under: its leading run of [A-Za-z0-9_]
/// ("FOO" for "FOO 12%"), or, when it starts otherwise, its first word ("(lfb", "???").
std::string_view tegrastats_token_name(std::string_view unparsed_field);

/// Dotted column names of a flattened record ("ram.used_mb", "cpus.0.util_pct", "gpu.freq_mhz.1"),
/// then, when the line had any, one "unparsed" column with the unparsed fields joined by ';'.
std::vector<std::pair<std::string, std::string>> flatten_tegrastats(const tegrastats_record& record);

/// A header with the union of columns in first-seen order; missing or null values are empty.
void write_tegrastats_csv(const std::vector<tegrastats_record>& records, std::ostream& out);

}  // namespace jetperf::telemetry
