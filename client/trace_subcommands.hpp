#pragma once
// The subcommands of `jetperf trace`, one file each, registered by cmd_trace.cpp. Each is a
// `command` over the `trace` group's CLI11 app, so a subcommand that talks to the daemon (a later
// `trace export`, `trace attach`) has the same context as every other command.
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"

namespace jetperf::client {

/// `trace analyze FILE.json`: offline, with the daemon's trace library (needs no daemon).
std::unique_ptr<command> make_trace_analyze_command(CLI::App& trace_group);

}  // namespace jetperf::client
