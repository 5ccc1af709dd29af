#pragma once
// The subcommands of `jetperf trace`, one file each, registered by cmd_trace.cpp. Each is a
// `command` over the `trace` group's CLI11 app, so a subcommand that talks to the daemon (a later
// `trace export`, `trace attach`) has the same context as every other command.
#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "command.hpp"

namespace jetperf::client {

/// `trace analyze FILE.json`: offline, with the daemon's trace library (needs no daemon).
std::unique_ptr<command> make_trace_analyze_command(CLI::App& trace_group);
/// `trace attach JOB FILE`: uploads a trace the job's program wrote; energy per op and kernel.
std::unique_ptr<command> make_trace_attach_command(CLI::App& trace_group);

/// `trace ID -o FILE.json`: the group's own positional and flags (trace_export.cpp).
struct trace_export_flags {
  explicit trace_export_flags(CLI::App& group);
  std::int64_t id = 0;
  std::string output;
  std::int64_t point = -1, from_ns = -1, to_ns = -1;
  std::string counters;
  std::int64_t counter_ms = 0;
};
/// GET /v1/jobs/{id}/trace into the file (or stdout).
int export_trace(context& ctx, const trace_export_flags& flags);

}  // namespace jetperf::client
