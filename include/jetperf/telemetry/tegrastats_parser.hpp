#pragma once
// tegrastats text -> typed records, for every line form in the Jetson README section 7.1.
// A hand-written scanner over string_view: no regex, no allocation beyond the record itself.
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/telemetry/tegrastats_record.hpp>

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
};

/// Parses one line. Throws validation_error (field "line") naming the offending token.
tegrastats_record parse_tegrastats_line(std::string_view line);
/// As above without exceptions: false and `error` filled when the line is not tegrastats.
bool try_parse_tegrastats_line(std::string_view line, tegrastats_record& out, std::string& error);

/// Every line of a stream; blank lines are skipped, every other failing line becomes an error.
tegrastats_parse_result parse_tegrastats_stream(std::istream& in);

/// {"timestamp", "ram":{used_mb,total_mb}, "cpus":[{util_pct,freq_mhz}], "emc":{..}, "gpu":{..},
/// "temps":{NAME:C|null}, "rails":{NAME:{cur_mw,avg_mw[,max_mw]}}}. A repeated rail name (Orin's
/// two `NC`) gets a suffix: NC, NC_2.
nlohmann::json to_json(const tegrastats_record& record);

/// Dotted column names of a flattened record ("ram.used_mb", "cpus.0.util_pct", "gpu.freq_mhz.1").
std::vector<std::pair<std::string, std::string>> flatten_tegrastats(const tegrastats_record& record);

/// One JSON object per line.
void write_tegrastats_jsonl(const std::vector<tegrastats_record>& records, std::ostream& out);
/// A header with the union of columns in first-seen order; missing or null values are empty.
void write_tegrastats_csv(const std::vector<tegrastats_record>& records, std::ostream& out);

}  // namespace jetperf::telemetry
