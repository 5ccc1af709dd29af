// jetperf trace ID [-o FILE.json] [--point N | --from NS --to NS] [--counters all|power|none]
//                  [--counter-ms MS]
// A job's timeline (points, settings, runs, phases, markers) and its telemetry as Chrome
// trace-event JSON, from GET /v1/jobs/{id}/trace: open it in Perfetto (ui.perfetto.dev) or
// chrome://tracing. Times are the daemon's CLOCK_MONOTONIC in microseconds. The file is written as
// it arrives (the daemon streams it), never held whole.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli_error.hpp"
#include "trace_subcommands.hpp"

namespace jetperf::client {

trace_export_flags::trace_export_flags(CLI::App& group) {
  group.add_option("ID", id, "Export job ID's timeline (jetperf trace ID -o FILE.json)")->check(job_id_check());
  group.add_option("-o,--output", output, "Write the trace to this file instead of stdout")->transform(dash_is_stdout());
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
  const auto target = "/v1/jobs/" + std::to_string(f.id) + "/trace" + query;
  if (f.output.empty()) {
    ctx.download(target, std::cout);
    return exit_ok;
  }
  // Written beside the file and renamed once whole: a failed export leaves no truncated trace,
  // and an earlier file stays as it was.
  const auto part = f.output + ".part";
  std::ofstream out(part, std::ios::binary | std::ios::trunc);
  if (!out) throw cli_error(exit_usage, "cannot write '" + part + "'");
  std::uint64_t bytes = 0;
  try {
    bytes = ctx.download(target, out);
    out.close();
    if (!out) throw cli_error(exit_usage, "cannot write '" + part + "'");
    if (std::rename(part.c_str(), f.output.c_str()) != 0) throw cli_error(exit_usage, "cannot write '" + f.output + "'");
  } catch (...) {
    out.close();
    std::remove(part.c_str());
    throw;
  }
  std::cerr << "wrote " << f.output << " (" << bytes << " bytes): open it in ui.perfetto.dev or chrome://tracing\n";
  return exit_ok;
}

}  // namespace jetperf::client
