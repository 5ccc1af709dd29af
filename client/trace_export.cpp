// jetperf trace ID [-o FILE.json] [--point N | --from NS --to NS] [--counters all|power|none]
//                  [--counter-ms MS]
// A job's timeline (points, settings, runs, phases, markers) and its telemetry as Chrome
// trace-event JSON, from GET /v1/jobs/{id}/trace: open it in Perfetto (ui.perfetto.dev) or
// chrome://tracing. Times are the daemon's CLOCK_MONOTONIC in microseconds.
#include <iostream>

#include "cli_error.hpp"
#include "trace_subcommands.hpp"

namespace jetperf::client {

trace_export_flags::trace_export_flags(CLI::App& group) {
  group.add_option("ID", id, "Export job ID's timeline (jetperf trace ID -o FILE.json)")->check(CLI::PositiveNumber);
  group.add_option("-o,--output", output, "Write the trace to this file instead of stdout");
  group.add_option("--point", point, "Only this point's spans and telemetry")->check(CLI::NonNegativeNumber);
  group.add_option("--from", from_ns, "From this CLOCK_MONOTONIC time (ns)")->check(CLI::NonNegativeNumber);
  group.add_option("--to", to_ns, "Up to this CLOCK_MONOTONIC time (ns)")->check(CLI::NonNegativeNumber);
  group.add_option("--counters", counters, "Telemetry counters: all (default), power or none")
      ->check(CLI::IsMember({"all", "power", "none"}));
  group.add_option("--counter-ms", counter_ms, "Telemetry as means per bucket of this many ms")
      ->check(CLI::PositiveNumber);
}

int export_trace(context& ctx, const trace_export_flags& f) {
  std::string query;
  const auto add = [&query](const std::string& k, const std::string& v) { query += (query.empty() ? "?" : "&") + k + "=" + v; };
  if (f.point >= 0) add("point", std::to_string(f.point));
  if (f.from_ns >= 0) add("from", std::to_string(f.from_ns));
  if (f.to_ns >= 0) add("to", std::to_string(f.to_ns));
  if (!f.counters.empty()) add("counters", url_encode(f.counters));
  if (f.counter_ms > 0) add("counter_ms", std::to_string(f.counter_ms));
  const auto text = ctx.call_text("/v1/jobs/" + std::to_string(f.id) + "/trace" + query);
  if (f.output.empty()) {
    std::cout << text;
    return exit_ok;
  }
  write_text_file(f.output, text);
  std::cerr << "wrote " << f.output << " (" << text.size() << " bytes): open it in ui.perfetto.dev or chrome://tracing\n";
  return exit_ok;
}

}  // namespace jetperf::client
