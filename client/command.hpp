#pragma once
// One class per subcommand (as DCGM's dcgmi does): each registers its CLI11 options in its
// constructor and runs against a context built from the resolved global settings.
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <jetperf/common/summary_table.hpp>

#include "http_client.hpp"
#include "settings.hpp"

namespace jetperf::client {

/// A job id: a whole number from 1 ("job id must be a whole number from 1, got 'abc'"; CLI11's
/// PositiveNumber printed the largest double, 309 digits, as its range).
inline const CLI::Validator& job_id_check() {
  static const CLI::Validator check(
      [](std::string& v) -> std::string {
        const bool digits = !v.empty() && v.size() <= 18 && v.find_first_not_of("0123456789") == std::string::npos;
        if (digits && std::stoll(v) >= 1) return {};
        return "a job id is a whole number from 1, got '" + v + "'";
      },
      "ID");
  return check;
}

/// `-o -` is stdout, as for curl and tar: the value becomes empty, the commands' "no file".
inline const CLI::Validator& dash_is_stdout() {
  static const CLI::Validator dash(
      [](std::string& v) {
        if (v == "-") v.clear();
        return std::string();
      },
      "FILE|-");
  return dash;
}

/// What every subcommand runs with.
class context {
 public:
  explicit context(settings s);
  const settings& config() const { return settings_; }
  http_client& http() { return http_; }

  /// Sends a request and returns the JSON answer; a 4xx/5xx answer throws cli_error(exit_failure)
  /// with the server's message and field.
  nlohmann::json call(const std::string& method, const std::string& target, const std::string& body = {});
  /// Same, for an answer that is not JSON (CSV): returns the body.
  std::string call_text(const std::string& target);
  /// GET a body too large to hold (a trace export) into `out` as it arrives; returns its size.
  /// Throws like call(), and cli_error(exit_usage) when `out` fails.
  std::uint64_t download(const std::string& target, std::ostream& out);

 private:
  settings settings_;
  http_client http_;
};

/// Throws cli_error(exit_failure) for a non-2xx reply: "<message> (field: <field>)".
void throw_if_error(const http_reply& reply);

/// The tables the daemon declares in `kind`'s summaries (GET /v1/kinds/{kind}); none for an
/// empty kind or one the daemon no longer has (its jobs' summaries then read as key: value lines).
/// Other failures throw like context::call.
std::vector<summary_table> kind_summary_tables(context& ctx, const std::string& kind);

/// Percent-encodes a query parameter value.
std::string url_encode(const std::string& value);
/// Writes `text` to `path`; cli_error (usage) naming the path when it cannot.
void write_text_file(const std::string& path, const std::string& text);

class command {
 public:
  virtual ~command() = default;
  /// The CLI11 subcommand this command registered.
  virtual CLI::App* app() const = 0;
  /// Returns the process exit code; throws cli_error.
  virtual int run(context& ctx) = 0;
  /// Whether it prints a table, which --format csv writes as CSV (others refuse csv).
  virtual bool prints_table() const { return false; }
};

std::unique_ptr<command> make_health_command(CLI::App& parent);
std::unique_ptr<command> make_jobs_command(CLI::App& parent);
std::unique_ptr<command> make_submit_command(CLI::App& parent);
std::unique_ptr<command> make_show_command(CLI::App& parent);
std::unique_ptr<command> make_watch_command(CLI::App& parent);
std::unique_ptr<command> make_cancel_command(CLI::App& parent);
std::unique_ptr<command> make_pin_command(CLI::App& parent);
std::unique_ptr<command> make_unpin_command(CLI::App& parent);
std::unique_ptr<command> make_rerun_command(CLI::App& parent);
std::unique_ptr<command> make_resume_command(CLI::App& parent);
std::unique_ptr<command> make_samples_command(CLI::App& parent);
std::unique_ptr<command> make_results_command(CLI::App& parent);
/// `tegrastats parse FILE`: offline conversion with the daemon's parser (needs no daemon).
std::unique_ptr<command> make_tegrastats_command(CLI::App& parent);
/// `trace analyze FILE` (offline, jetperf::traces); the group where trace export/attach go too.
std::unique_ptr<command> make_trace_command(CLI::App& parent);
/// `board`: the board's identity, modes, frequency lists, rails and sensors.
std::unique_ptr<command> make_board_command(CLI::App& parent);
/// `mode` and `mode set ID|NAME [--force]`.
std::unique_ptr<command> make_mode_command(CLI::App& parent);
/// `clocks`, `clocks lock [--gpu|--cpu|--emc]`, `clocks restore`.
std::unique_ptr<command> make_clocks_command(CLI::App& parent);
/// `top`: live telemetry from the SSE stream.
std::unique_ptr<command> make_top_command(CLI::App& parent);
/// `compare ID --by PARAM`: a gemm job's points compared along one parameter.
std::unique_ptr<command> make_compare_command(CLI::App& parent);
/// `models` (the zoo) and `models show NAME [--granularity op|block] [--batch N]`.
std::unique_ptr<command> make_models_command(CLI::App& parent);

/// `fleet status|submit|watch|results`: many boards at once (cmd_fleet.cpp).
std::unique_ptr<command> make_fleet_command(CLI::App& parent);

/// `completion bash|zsh|fish` and `man` (hidden): written from the app's own command table.
std::unique_ptr<command> make_completion_command(CLI::App& parent);
std::unique_ptr<command> make_man_command(CLI::App& parent);

/// Columns of the terminal stdout is on, or 0 when stdout is not a terminal.
int stdout_terminal_width();

/// Follows a job until it ends (shared by `watch` and `submit --watch`).
/// Returns exit_ok when it succeeded, exit_failure when it failed, was cancelled or interrupted.
int watch_job(context& ctx, std::int64_t id);

}  // namespace jetperf::client
