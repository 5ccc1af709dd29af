// jetperf: the command-line client of jetperfd. Exit codes: 0 ok, 1 server-side error (or the
// watched job did not succeed), 2 usage error, 3 cannot reach the daemon. Every error is one
// line on stderr.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include <jetperf/config.hpp>

#include "cli_error.hpp"
#include "command.hpp"
#include "settings.hpp"

using namespace jetperf::client;

namespace {

// CLI11's "A subcommand is required" for `jetperf frobnicate`: the first word that is neither a
// flag nor one of the commands is named instead, with the commands there are.
std::string usage_error_text(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  // The first word past the global flags (those that take a value skip it too).
  int i = 1;
  while (i < argc && argv[i][0] == '-') {
    const std::string flag = argv[i];
    i += (flag == "--host" || flag == "--token" || flag == "--timeout" || flag == "--format") ? 2 : 1;
  }
  if (i >= argc) return e.what();
  const std::string word = argv[i];
  std::string names;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return e.what();
    if (!sub->get_group().empty()) names += (names.empty() ? "" : ", ") + sub->get_name();  // hidden ones unnamed
  }
  return "unknown command '" + word + "'; the commands: " + names;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"jetperf: submit and follow profiling jobs on a jetperfd daemon"};
  app.footer(
      "Host: --host, $JETPERF_HOST, `host =` in ~/.config/jetperf/config, else 127.0.0.1:7070.\n"
      "Token: --token, $JETPERF_TOKEN, `token =` or `token_file =` in the config, /var/lib/jetperf/token (local).\n"
      "Exit codes: 0 ok, 1 server error or job not succeeded, 2 usage error, 3 cannot connect.");
  app.set_version_flag("--version", std::string("jetperf ") + JETPERF_VERSION + " (" + JETPERF_GIT_COMMIT + ")");
  app.require_subcommand(1);
  // Global flags are accepted after the subcommand too (`jetperf jobs --json`).
  app.fallthrough();

  global_flags flags;
  app.add_option("--host", flags.host, "Daemon address HOST:PORT or http://HOST:PORT");
  app.add_option("--token", flags.token, "Bearer token for requests that change something");
  app.add_option("--format", flags.format,
                 "table (default), csv or json (the API's JSON) for what the command prints; csv only where it "
                 "prints a table")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  app.add_flag("--json", flags.json, "The same as --format json");
  app.add_option("--timeout", flags.timeout_s, "Seconds to wait for connect and each answer (default 10)")
      ->check(CLI::PositiveNumber);

  std::vector<std::unique_ptr<command>> commands;
  commands.push_back(make_health_command(app));
  commands.push_back(make_jobs_command(app));
  commands.push_back(make_submit_command(app));
  commands.push_back(make_show_command(app));
  commands.push_back(make_watch_command(app));
  commands.push_back(make_cancel_command(app));
  commands.push_back(make_pin_command(app));
  commands.push_back(make_unpin_command(app));
  commands.push_back(make_rerun_command(app));
  commands.push_back(make_resume_command(app));
  commands.push_back(make_samples_command(app));
  commands.push_back(make_results_command(app));
  commands.push_back(make_tegrastats_command(app));
  commands.push_back(make_trace_command(app));
  commands.push_back(make_board_command(app));
  commands.push_back(make_mode_command(app));
  commands.push_back(make_clocks_command(app));
  commands.push_back(make_top_command(app));
  commands.push_back(make_compare_command(app));
  commands.push_back(make_models_command(app));
  commands.push_back(make_fleet_command(app));
  commands.push_back(make_completion_command(app));
  commands.push_back(make_man_command(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << usage_error_text(app, e, argc, argv) << " (see jetperf --help)" << std::endl;
    return exit_usage;
  }

  try {
    context ctx(resolve_settings(flags, [](const char* name) { return std::getenv(name); }));
    for (auto& c : commands) {
      if (!c->app()->parsed()) continue;
      if (ctx.config().format == "csv" && !c->prints_table())
        throw cli_error(exit_usage, "--format csv: `jetperf " + c->app()->get_name() +
                                        "` prints no table (table or json)");
      return c->run(ctx);
    }
    std::cerr << "error: no subcommand given (see jetperf --help)" << std::endl;
    return exit_usage;
  } catch (const cli_error& e) {
    std::cout.flush();
    std::cerr << "error: " << e.what() << std::endl;
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << std::endl;
    return exit_failure;
  }
}
