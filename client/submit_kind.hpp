#pragma once
// The flags of one job kind for `jetperf submit KIND`. Each kind lives in its own file
// (submit_idle.cpp, submit_gemm.cpp, ...) and is listed in submit_kinds.cpp. Kinds without an
// entry can still be submitted with --spec FILE and --set key=value.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace jetperf::client {

class submit_kind {
 public:
  virtual ~submit_kind() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// Adds the kind's flags to its `submit KIND` subcommand.
  virtual void add_flags(CLI::App& app) = 0;
  /// Writes the fields whose flags were given into `spec`. Applied over --spec FILE and under
  /// --set; leave fields whose flags were not given untouched (the daemon fills defaults).
  /// Throws cli_error(exit_usage) for a flag value it cannot translate.
  virtual void fill_spec(nlohmann::json& spec) const = 0;
};

/// Every kind with its own flags, in the order `submit --help` lists them.
std::vector<std::unique_ptr<submit_kind>> make_submit_kinds();

std::unique_ptr<submit_kind> make_idle_submit_kind();
std::unique_ptr<submit_kind> make_gemm_submit_kind();
std::unique_ptr<submit_kind> make_layers_submit_kind();
std::unique_ptr<submit_kind> make_multi_dnn_submit_kind();
std::unique_ptr<submit_kind> make_command_submit_kind();

/// A command-line value as JSON: a number, bool, array or object when it parses as JSON,
/// otherwise the string itself ("half" -> "half", "2.5" -> 2.5, "[1,2]" -> [1,2]).
nlohmann::json parse_flag_value(const std::string& text);

}  // namespace jetperf::client
