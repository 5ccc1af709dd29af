// libFuzzer target: any bytes as one tegrastats line. The parser must either fill a record or
// report an error (validation_error from the throwing form); anything else is a bug. A parsed
// record must also survive its JSON form (the client's), the CSV flattening, and a reparse into the same record.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <jetperf/common/errors.hpp>
#include <jetperf/tegrastats/tegrastats_parser.hpp>
#include <tegrastats_json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace jetperf::telemetry;
  std::string_view line(reinterpret_cast<const char*>(data), size);
  static tegrastats_record reused;  // keeps slots from earlier inputs, as the sensor's record does
  std::string error;
  bool ok = try_parse_tegrastats_line(line, reused, error);
  tegrastats_record fresh;
  try {
    fresh = parse_tegrastats_line(line);
    if (!ok) __builtin_trap();  // the two forms disagree
  } catch (const jetperf::validation_error&) {
    if (ok) __builtin_trap();
    return 0;
  }
  using jetperf::client::tegrastats_record_json;
  if (tegrastats_record_json(fresh).dump() != tegrastats_record_json(reused).dump()) __builtin_trap();  // slot reuse leaked state
  (void)flatten_tegrastats(fresh);
  return 0;
}
