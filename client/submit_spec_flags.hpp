#pragma once
// The flags that make a job request, shared by `jetperf submit` and `jetperf fleet submit`:
// KIND (a kind subcommand with its own flags, or a bare kind name), --spec FILE, --set key=value
// and --tag. The spec is --spec's, then the kind's flags, then --set (later wins).
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "submit_kind.hpp"

namespace jetperf::client {

struct job_request {
  std::string kind;
  nlohmann::json spec = nlohmann::json::object();
  std::vector<std::string> tags;
  /// {"kind","spec","tags"}: the body of POST /v1/jobs.
  nlohmann::json body() const { return {{"kind", kind}, {"spec", spec}, {"tags", tags}}; }
};

class submit_spec_flags {
 public:
  /// Registers the flags and one subcommand per kind with its own flags on `app`.
  explicit submit_spec_flags(CLI::App& app);
  /// Builds the request from what was parsed. Throws cli_error(exit_usage) for a missing kind, an
  /// unreadable spec file or a bad --set.
  job_request build() const;

 private:
  CLI::App* app_;
  std::vector<std::unique_ptr<submit_kind>> kinds_;
  std::string kind_;
  std::string spec_file_;
  std::vector<std::string> sets_;
  std::vector<std::string> tags_;
};

}  // namespace jetperf::client
