#pragma once
// The command table read from the CLI11 app itself (cli_reference.hpp): every visible subcommand,
// option and argument, with the descriptions --help prints. Hidden commands (no group) are left out.
#include <CLI/CLI.hpp>

#include "cli_reference.hpp"

namespace jetperf::client {

/// `app` and everything below it; `app`'s words are {"jetperf"}.
cli_command describe_app(const CLI::App& app);

}  // namespace jetperf::client
