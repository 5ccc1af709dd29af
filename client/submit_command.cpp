// `jetperf submit command`: the researcher's own program under each board setting, with power
// sampled throughout and its marked phases (JETPERF_MARKERS). The daemon must enable command
// jobs (jetperfd.conf: command_jobs, command_user); it resolves and checks the program.
#include "cli_error.hpp"
#include "flag_lists.hpp"
#include "submit_kind.hpp"

namespace jetperf::client {

namespace {

class command_kind final : public submit_kind {
 public:
  std::string name() const override { return "command"; }
  std::string description() const override {
    return "Run your own program (argv, never a shell) under each board setting: energy per run and per marked phase";
  }

  void add_flags(CLI::App& app) override {
    argv_ = app.add_option("--argv", argv_v_,
                           "The program and its arguments, a comma list (spec.argv), e.g. python3,train.py; repeat to "
                           "append, or use --arg for an argument holding a comma");
    arg_ = app.add_option("--arg", arg_v_, "One more argument, verbatim (appended after --argv; repeatable)");
    cwd_ = app.add_option("--cwd", cwd_v_, "Working directory on the board (spec.cwd; default the account's home)");
    env_ = app.add_option("--env", env_v_, "NAME=VALUE for the program's environment (spec.env; repeatable)");
    for (auto& f : integers_) f.add_to(app);
    for (auto& n : numbers_) n.add_to(app);
    board_.add_to(app);
  }

  void fill_spec(nlohmann::json& spec) const override {
    if (argv_->count() || arg_->count()) {
      nlohmann::json argv = nlohmann::json::array();
      for (const auto& item : argv_v_)
        for (const auto& a : split_list(item)) argv.push_back(a);
      for (const auto& a : arg_v_) argv.push_back(a);
      spec["argv"] = argv;
    }
    if (cwd_->count()) spec["cwd"] = cwd_v_;
    if (env_->count()) {
      if (!spec.contains("env") || !spec["env"].is_object()) spec["env"] = nlohmann::json::object();
      for (const auto& kv : env_v_) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw cli_error(exit_usage, "--env takes NAME=VALUE, got '" + kv + "'");
        spec["env"][kv.substr(0, eq)] = kv.substr(eq + 1);
      }
    }
    for (const auto& f : integers_)
      if (f.given()) spec[f.field] = f.value;
    for (const auto& n : numbers_)
      if (n.given()) spec[n.field] = n.value;
    board_.fill(spec);
  }

 private:
  CLI::Option *argv_ = nullptr, *arg_ = nullptr, *cwd_ = nullptr, *env_ = nullptr;
  std::vector<std::string> argv_v_, arg_v_, env_v_;
  std::string cwd_v_;
  board_axis_flags board_;
  // Ranges are checked by the daemon (one place, one message naming spec.<field>).
  integer_flag integers_[3] = {
      {"--repeats", "repeats", "Measured runs per board setting (spec.repeats; default 1)"},
      {"--warmup-runs", "warmup_runs", "Unmeasured runs before the first of each setting (spec.warmup_runs; default 0)"},
      {"--max-processes", "max_processes",
       "Processes and threads a run may have alive at once (spec.max_processes; default: the daemon's ceiling)"},
  };
  number_flag numbers_[6] = {
      {"--max-memory-mb", "max_memory_mb", "MiB of memory a run may use (spec.max_memory_mb; default: the daemon's ceiling)"},
      {"--timeout", "timeout_s", "Seconds before a run is killed with its process group (spec.timeout_s; default 3600)"},
      {"--cooldown", "cooldown_s", "Seconds of rest before each run (spec.cooldown_s; default 0)"},
      {"--idle", "idle_s", "Seconds of idle baseline per setting (spec.idle_s; default 1)"},
      contention_threshold_flag(),
      max_retries_flag(),
  };
};

}  // namespace

std::unique_ptr<submit_kind> make_command_submit_kind() { return std::make_unique<command_kind>(); }

}  // namespace jetperf::client
