#pragma once
// jetperfd's configuration: parsed once from the config file, then overridden by flags, into one
// validated typed object. Components receive the pieces they need from it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <spdlog/common.h>

namespace jetperf::daemon {

/// Bad configuration (file or flag); the message names the file, line and key, or the flag.
/// jetperfd prints it on one line and exits with status 2.
class config_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where `cmake --install` puts web/: <install prefix>/share/jetperf/web (/usr/share/jetperf/web in
/// the .deb).
std::string installed_web_root();
/// For a daemon run from its build tree (`from_build_tree`), `source_tree` when it holds the page:
/// the page of the code being run, not an older installed one. Else `installed` when it holds
/// the page, else `source_tree` when that does, else `installed` (what the missing page names).
std::string pick_web_root(const std::string& installed, const std::string& source_tree, bool from_build_tree);
/// Whether `executable` lies in the build directory `build_dir` (a daemon not yet installed).
bool in_build_tree(const std::string& executable, const std::string& build_dir);
/// The web_root a configuration without one gets: this build's source tree's page for a daemon
/// run from its build tree, the installed page for an installed one.
std::string default_web_root();

struct daemon_config {
  std::string config_path = "/etc/jetperf/jetperfd.conf";
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 7070;  ///< 0 = any free port (see ready_file)
  std::string db_path = "/var/lib/jetperf/jetperf.db";
  std::string token_file = "/var/lib/jetperf/token";
  /// auto | sim:PROFILE | jetson | dgpu | host
  std::string board = "auto";
  spdlog::level::level_enum log_level = spdlog::level::info;
  bool require_token_for_reads = false;
  std::string sysfs_root = "/";
  std::string nvpmodel_path = "/usr/sbin/nvpmodel";
  std::string tegrastats_path = "/usr/bin/tegrastats";
  std::string sim_dir = "/var/lib/jetperf/sim";
  /// Profile of the simulated board served when `auto` finds neither a Jetson nor an NVIDIA GPU.
  std::string sim_profile = "orin-agx";
  /// Telemetry tick period (full rate, kept with a running job).
  std::uint32_t sample_period_ms = 10;
  /// The shortest tick period a point may ask for, for its power sensors only (1..sample_period_ms):
  /// a layers point in_context shortens the INA3221s' averaging window, and each reading must
  /// still be polled a few times to be placed (measure/sensor_averaging_scope.hpp).
  std::uint32_t fast_sample_period_ms = 1;
  /// Telemetry tick period while no job runs (0: 100 ms, within sample..history period): an idle
  /// daemon costs a tenth of a full-rate one, and the telemetry stream's 100 ms floor still sees
  /// fresh values. A job's start wakes the sampler to the full period at once.
  std::uint32_t idle_sample_period_ms = 0;
  /// Period of the history samples stored while no job runs (a multiple of sample_period_ms).
  std::uint32_t history_period_ms = 1000;
  /// History samples older than this many hours are deleted.
  std::uint32_t history_retention_h = 24;
  /// A finished job's samples stay at full rate this many days, then are downsampled to one
  /// record per channel and second (min, mean, max) until retention_days, then dropped; pinned
  /// jobs are kept whole. Results, timelines and provenance are never dropped.
  double retention_full_days = 7;
  double retention_days = 90;
  /// A job fails when a temperature channel reads above this (degrees Celsius; 0 = no guard).
  std::uint32_t thermal_limit_c = 95;
  std::size_t max_connections = 256;
  std::size_t threads = 2;  ///< HTTP io threads
  /// Host names (and addresses) requests may name in their Host header, besides the loopback
  /// names, the listen address and, when it listens beyond loopback, this machine's name: a web
  /// page on another name cannot read or change the API through DNS rebinding.
  std::vector<std::string> allowed_hosts;
  /// Event streams (SSE) open at once, in all (0: a quarter of max_connections) and per remote
  /// address.
  std::size_t max_streams = 0;
  std::size_t max_streams_per_address = 8;
  /// Command jobs (the researcher's own program): off unless enabled, and then run as
  /// command_user (never root), from inside command_dirs when any are named.
  bool command_jobs = false;
  std::string command_user;
  std::vector<std::string> command_dirs;
  /// What one run may use at most (a spec's max_processes and max_memory_mb default to these and
  /// may not exceed them): processes and threads alive at once, and MiB of memory (0: the
  /// host's memory less a quarter, at least 1 GiB, left for the daemon and the board).
  std::int64_t command_max_processes = 4096;
  std::int64_t command_max_memory_mb = 0;
  /// Traces attached to finished jobs (POST /v1/jobs/{id}/traces), kept under
  /// <database dir>/traces: one upload at most this many MiB (streamed to disk, not the 1 MiB
  /// body limit), at most max_trace_attachments per job, all jobs' together max_trace_disk_mb.
  std::uint64_t max_trace_upload_mb = 256;
  std::int64_t max_trace_attachments = 8;
  std::uint64_t max_trace_disk_mb = 4096;
  /// The lab's name for this board, on jetperf_build_info{board} at /metrics and in
  /// GET /v1/health (`board_name`); "" = this machine's host name. Letters, digits, '.', '_', '-'.
  std::string board_name;
  /// The web page served at / (the package installs it here; the build tree's tests name the
  /// source web/ folder).
  std::string web_root = default_web_root();
  /// Debian's javascript dir, where libjs-dygraphs and libjs-chart.js put the page's plotting
  /// libraries (served at /javascript/...).
  std::string javascript_dir = "/usr/share/javascript";
  /// Where per-job runtime files live (command jobs' marker sockets).
  std::string runtime_dir = "/run/jetperf";
  /// When set, "HOST:PORT\n" is written here (atomically) once the listener is bound.
  std::string ready_file;
  /// Restore the board from a dirty snapshot and exit (ExecStopPost of the unit).
  bool restore_only = false;

  /// "HOST:PORT", with brackets around an IPv6 host.
  std::string listen_text() const;
};

/// What the command line asks for: a configuration to run, or text to print and exit 0.
struct command_line {
  daemon_config config;
  bool exit_now = false;  ///< --help or --version
  std::string exit_text;
};

/// Parses flags (without argv[0]) and the config file: defaults < file < flags. A missing
/// default config file is fine; a missing --config file is an error. Throws config_error.
command_line parse_command_line(const std::vector<std::string>& args);

/// Applies a config file of `key = value` lines (`#` comments) to `config`. Throws config_error.
void apply_config_file(daemon_config& config, const std::string& path);

/// The keys a config file may set, in their file spelling (sorted).
std::vector<std::string> config_file_keys();

/// Sets one key (file spelling, e.g. "max_connections") from text; `where` prefixes errors. An
/// unknown key is refused, naming the nearest known one ("did you mean 'max_connections'?").
void set_config_value(daemon_config& config, const std::string& key, const std::string& value,
                      const std::string& where);

/// The --help text.
std::string usage_text();

}  // namespace jetperf::daemon
