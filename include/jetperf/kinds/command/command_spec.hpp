#pragma once
// The `command` job spec: the researcher's own program (argv, cwd, env), how often it runs
// (warmup_runs, repeats), its limits (timeout_s) and the board-setting axes shared with gemm and
// layers. parse() validates field by field (validation_error "spec.<field>") against the board
// and the daemon's command policy, and resolves the program to an absolute path once.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/kinds/command/command_policy.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/platform/board_setting.hpp>

namespace jetperf::kinds {

constexpr std::size_t k_max_command_args = 256;
constexpr std::size_t k_max_command_arg_bytes = 4096;
constexpr std::size_t k_max_command_env = 128;
constexpr std::size_t k_max_command_points = 10000;

struct command_spec {
  std::vector<std::string> argv;
  std::string program;  ///< argv[0] resolved: absolute, symbolic links followed
  std::string cwd;
  std::map<std::string, std::string> env;
  double timeout_s = 3600;
  std::int64_t repeats = 1;
  std::int64_t warmup_runs = 0;
  double cooldown_s = 0;
  double idle_s = 1;  ///< idle baseline per setting (0: none)
  /// What each run may use (the daemon's ceilings where unset): processes and threads alive at
  /// once, and MiB of memory.
  std::optional<double> max_processes, max_memory_mb;
  record board_axes;
  /// A run whose window others took more than the threshold of is run again (up to max_retries),
  /// the program's own CPU time (its rusage) not counted as another's.
  measure::contention_policy contention;

  static command_spec parse(const record& spec, const platform::board_offer& offered,
                            const command_policy& policy);
  static command_spec stored(const record& normalized);
  record to_record() const;
};

const std::vector<spec_field>& command_spec_fields();

/// What each run of `spec` may use: its own limits, the daemon's where it sets none.
platform::run_limits run_limits_of(const command_spec& spec, const command_policy& policy);

/// The stored program as it stands when a run starts, resolved (symbolic links followed): what
/// was checked at submission may have been replaced since (a link out of command_dirs). Throws
/// std::runtime_error when it is gone or now resolves outside policy.allowed_dirs.
std::string program_to_run(const std::string& program, const command_policy& policy);

/// One run of the program: under a board setting (unset values: as the board is), the repeat-th.
struct command_point {
  platform::board_setting setting;
  std::int64_t repeat = 0;
  /// {power_mode, emc_freq_hz, gpu_freq_hz, cpu_freq_khz, repeat} (null where unset): as stored.
  record to_record() const;
  static command_point of(const record& point);
};

/// The points: board setting outermost (each setting's warm-up runs once), then the repeat.
std::vector<command_point> expand(const command_spec& spec);

/// The environment the program gets: PATH (unless env sets it), HOME, USER, LOGNAME of the
/// account, the spec's env, then `extra` (JETPERF_MARKERS, ...) as "NAME=value" strings.
std::vector<std::string> command_environment(const command_spec& spec, const platform::user_account& account,
                                             const std::map<std::string, std::string>& extra);

}  // namespace jetperf::kinds
