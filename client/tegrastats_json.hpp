#pragma once
// `jetperf tegrastats parse --format jsonl`: a parsed tegrastats record as JSON. Here in the
// client, its only writer: the parser library (src/tegrastats) stays typed and JSON-free.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/tegrastats/tegrastats_record.hpp>

namespace jetperf::client {

/// {"timestamp", "ram":{used_mb,total_mb}, "cpus":[{util_pct,freq_mhz}], "emc":{..}, "gpu":{..},
/// "temps":{NAME:C|null}, "rails":{NAME:{cur_mw,avg_mw[,max_mw]}}[, "unparsed":[..]]}. A repeated
/// rail name (Orin's two `NC`) gets a suffix: NC, NC_2. "unparsed" is there only when the line had
/// fields the parser did not understand, so the JSON of an ordinary line is unchanged.
nlohmann::json tegrastats_record_json(const telemetry::tegrastats_record& record);

/// One JSON object per line.
void write_tegrastats_jsonl(const std::vector<telemetry::tegrastats_record>& records, std::ostream& out);

}  // namespace jetperf::client
