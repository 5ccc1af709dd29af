#include "daemon_config.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <jetperf/config.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/platform/own_executable.hpp>
#include <jetperf/sim/profile_file.hpp>

namespace jetperf::daemon {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& msg) {
  throw config_error(where + ": " + key + ": " + msg);
}

std::uint64_t parse_unsigned(const std::string& where, const std::string& key,
                             const std::string& value, std::uint64_t min, std::uint64_t max) {
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
      value.size() > 10) {
    fail(where, key, "'" + value + "' is not a whole number");
  }
  const std::uint64_t n = std::stoull(value);
  if (n < min || n > max) {
    fail(where, key, "'" + value + "' is out of range " + std::to_string(min) + ".." +
                         std::to_string(max));
  }
  return n;
}

// Days as a decimal number (a fraction of a day for tests), within [min, max]; min is 0.00001.
double parse_days(const std::string& where, const std::string& key, const std::string& value, double min, double max) {
  std::size_t used = 0;
  double d = 0;
  try {
    d = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (value.empty() || used != value.size() || !(d >= min && d <= max))
    fail(where, key, "'" + value + "' is not a number of days from 0.00001 (about a second) to " +
                         std::to_string(static_cast<long long>(max)));
  return d;
}

bool parse_bool(const std::string& where, const std::string& key, const std::string& value) {
  if (value == "true" || value == "yes" || value == "on" || value == "1") return true;
  if (value == "false" || value == "no" || value == "off" || value == "0") return false;
  fail(where, key, "'" + value + "' is not a boolean (true or false)");
}

std::string parse_path(const std::string& where, const std::string& key, const std::string& value) {
  if (value.empty()) fail(where, key, "must not be empty");
  return value;
}

std::string parse_absolute_path(const std::string& where, const std::string& key, const std::string& value) {
  if (value.empty() || value.front() != '/') fail(where, key, "'" + value + "' is not an absolute path");
  return value;
}

// A comma-separated value's items, each trimmed of blanks, empty ones dropped ("a, b,," -> a, b).
std::vector<std::string> list_items(const std::string& value) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(value);
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

void parse_listen(daemon_config& c, const std::string& where, const std::string& key,
                  const std::string& value) {
  std::string host;
  std::string port;
  if (!value.empty() && value.front() == '[') {
    const auto close = value.find(']');
    if (close == std::string::npos || close + 1 >= value.size() || value[close + 1] != ':') {
      fail(where, key, "'" + value + "' is not [HOST]:PORT");
    }
    host = value.substr(1, close - 1);
    port = value.substr(close + 2);
  } else {
    const auto colon = value.rfind(':');
    if (colon == std::string::npos || value.find(':') != colon) {
      fail(where, key, "'" + value + "' is not HOST:PORT");
    }
    host = value.substr(0, colon);
    port = value.substr(colon + 1);
  }
  if (host.empty()) fail(where, key, "'" + value + "' has no host");
  c.listen_host = host;
  c.listen_port = static_cast<std::uint16_t>(parse_unsigned(where, key, port, 0, 65535));
}

void parse_board(daemon_config& c, const std::string& where, const std::string& key,
                 const std::string& value) {
  if (value == "auto" || value == "jetson" || value == "dgpu" || value == "host") {
    c.board = value;
    return;
  }
  if (value.rfind("sim:", 0) == 0 && value.size() > 4 &&
      value.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-", 4) == std::string::npos) {
    c.board = value;
    return;
  }
  // A profile file (sim:PATH.json): read and checked when the board is set up.
  if (value.rfind("sim:", 0) == 0 && value.size() > 9 && value.compare(value.size() - 5, 5, ".json") == 0 &&
      std::none_of(value.begin(), value.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; })) {
    c.board = value;
    return;
  }
  fail(where, key, "'" + value + "' is not one of auto, sim:PROFILE, sim:PATH.json, jetson, dgpu, host");
}

void parse_log_level(daemon_config& c, const std::string& where, const std::string& key,
                     const std::string& value) {
  static const std::map<std::string, spdlog::level::level_enum> levels = {
      {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
      {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
      {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
      {"off", spdlog::level::off}};
  auto it = levels.find(value);
  if (it == levels.end()) {
    fail(where, key, "'" + value + "' is not one of trace, debug, info, warn, error, critical, off");
  }
  c.log_level = it->second;
}

using setter = std::function<void(daemon_config&, const std::string& where, const std::string& key,
                                  const std::string& value)>;

// Setters for the common kinds of value, each writing one member of daemon_config.
setter path_key(std::string daemon_config::*field) {
  return [field](daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
    c.*field = parse_path(w, k, v);
  };
}

setter absolute_path_key(std::string daemon_config::*field) {
  return [field](daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
    c.*field = parse_absolute_path(w, k, v);
  };
}

setter bool_key(bool daemon_config::*field) {
  return [field](daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
    c.*field = parse_bool(w, k, v);
  };
}

template <typename T>
setter whole_number_key(T daemon_config::*field, std::uint64_t min, std::uint64_t max) {
  return [field, min, max](daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
    c.*field = static_cast<T>(parse_unsigned(w, k, v, min, max));
  };
}

setter days_key(double daemon_config::*field, double min, double max) {
  return [field, min, max](daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
    c.*field = parse_days(w, k, v, min, max);
  };
}

void parse_sim_profile(daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
  if (v.empty() || v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos) {
    fail(w, k, "'" + v + "' is not a profile name (e.g. orin-agx)");
  }
  c.sim_profile = v;
}

void parse_board_name(daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
  if (v.empty() || v.size() > 64 ||
      v.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != std::string::npos)
    fail(w, k, "'" + v + "' is not a board name (1 to 64 letters, digits, '.', '_' or '-')");
  c.board_name = v;
}

void parse_allowed_hosts(daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
  c.allowed_hosts.clear();
  for (const auto& item : list_items(v)) {
    if (item.find_first_of(" /@?#") != std::string::npos) fail(w, k, "'" + item + "' is not a host name or address");
    c.allowed_hosts.push_back(item);
  }
}

void parse_command_user(daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
  if (v.empty() || v.find_first_of(" \t/:") != std::string::npos) fail(w, k, "'" + v + "' is not an account name");
  c.command_user = v;
}

void parse_command_dirs(daemon_config& c, const std::string& w, const std::string& k, const std::string& v) {
  c.command_dirs.clear();
  for (const auto& item : list_items(v)) c.command_dirs.push_back(parse_path(w, k, item));
}

// Keys allowed in the config file, in their file spelling; flags use '-' for '_'.
const std::map<std::string, setter>& file_keys() {
  using cfg = daemon_config;
  static const std::map<std::string, setter> keys = {
      {"listen", parse_listen},
      {"db", path_key(&cfg::db_path)},
      {"token_file", path_key(&cfg::token_file)},
      {"board", parse_board},
      {"log_level", parse_log_level},
      {"require_token_for_reads", bool_key(&cfg::require_token_for_reads)},
      {"sysfs_root", absolute_path_key(&cfg::sysfs_root)},
      {"nvpmodel", path_key(&cfg::nvpmodel_path)},
      {"tegrastats", path_key(&cfg::tegrastats_path)},
      {"sim_dir", path_key(&cfg::sim_dir)},
      {"sim_profile", parse_sim_profile},
      {"board_name", parse_board_name},
      {"sample_period_ms", whole_number_key(&cfg::sample_period_ms, 1, 1000)},
      {"fast_sample_period_ms", whole_number_key(&cfg::fast_sample_period_ms, 1, 1000)},
      {"idle_sample_period_ms", whole_number_key(&cfg::idle_sample_period_ms, 1, 3600000)},
      {"history_period_ms", whole_number_key(&cfg::history_period_ms, 10, 3600000)},
      {"history_retention_h", whole_number_key(&cfg::history_retention_h, 1, 24 * 366)},
      {"retention_full_days", days_key(&cfg::retention_full_days, 0.00001, 3660)},
      {"retention_days", days_key(&cfg::retention_days, 0.00001, 36600)},
      {"thermal_limit_c", whole_number_key(&cfg::thermal_limit_c, 0, 150)},
      {"max_connections", whole_number_key(&cfg::max_connections, 1, 100000)},
      {"threads", whole_number_key(&cfg::threads, 1, 64)},
      {"allowed_hosts", parse_allowed_hosts},
      {"command_jobs", bool_key(&cfg::command_jobs)},
      {"command_user", parse_command_user},
      {"command_dirs", parse_command_dirs},
      {"command_max_processes", whole_number_key(&cfg::command_max_processes, 16, 1'000'000)},
      {"command_max_memory_mb", whole_number_key(&cfg::command_max_memory_mb, 64, 1 << 30)},
      {"web_root", absolute_path_key(&cfg::web_root)},
      {"javascript_dir", absolute_path_key(&cfg::javascript_dir)},
      {"runtime_dir", path_key(&cfg::runtime_dir)},
      {"max_trace_upload_mb", whole_number_key(&cfg::max_trace_upload_mb, 1, 65536)},
      {"max_trace_attachments", whole_number_key(&cfg::max_trace_attachments, 1, 10000)},
      {"max_trace_disk_mb", whole_number_key(&cfg::max_trace_disk_mb, 1, 16u << 20)},
      {"max_streams", whole_number_key(&cfg::max_streams, 1, 100000)},
      {"max_streams_per_address", whole_number_key(&cfg::max_streams_per_address, 1, 100000)},
  };
  return keys;
}

// Flags that take no value (a bare flag means true).
const std::set<std::string>& bool_keys() {
  static const std::set<std::string> keys = {"require_token_for_reads", "restore_only"};
  return keys;
}

// Edits (insertions, deletions, substitutions) turning a into b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The known key a typo most likely meant (at most two edits away), or "".
std::string nearest_key(const std::string& key) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& k : file_keys()) {
    const auto d = edit_distance(key, k.first);
    if (d < best_distance) {
      best = k.first;
      best_distance = d;
    }
  }
  return best;
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// --write-sim-profile NAME: a built-in profile as a file users edit and serve with sim:PATH.json.
std::string sim_profile_text(const std::string& name) {
  try {
    return sim::profile_json_text(sim::find_profile(name));
  } catch (const not_found& e) {
    throw config_error(std::string("--write-sim-profile: ") + e.what());
  }
}

// What --help, --version and --write-sim-profile print instead of starting (nullopt: args[i] is
// none of them); the last takes its value from the next argument.
std::optional<std::string> exit_text_of(const std::vector<std::string>& args, std::size_t& i) {
  const std::string& arg = args[i];
  if (arg == "--help" || arg == "-h") return usage_text();
  if (arg == "--version") return std::string("jetperfd ") + JETPERF_VERSION + "\n";
  if (arg == "--write-sim-profile" || arg.rfind("--write-sim-profile=", 0) == 0)
    return sim_profile_text(arg.size() > 19 ? arg.substr(20) : (i + 1 < args.size() ? args[++i] : ""));
  return std::nullopt;
}

}  // namespace

std::string installed_web_root() { return JETPERF_DEFAULT_WEB_ROOT; }

std::string pick_web_root(const std::string& installed, const std::string& source_tree, bool from_build_tree) {
  if (from_build_tree && file_exists(source_tree + "/index.html")) return source_tree;
  if (file_exists(installed + "/index.html")) return installed;
  if (file_exists(source_tree + "/index.html")) return source_tree;
  return installed;  // its absence is what the page's 404 names
}

bool in_build_tree(const std::string& executable, const std::string& build_dir) {
  return !build_dir.empty() && executable.size() > build_dir.size() &&
         executable.compare(0, build_dir.size(), build_dir) == 0 && executable[build_dir.size()] == '/';
}

std::string default_web_root() {
  // The kernel names the executable with symbolic links resolved: so is the build directory.
  std::error_code ec;
  const auto build_dir = std::filesystem::weakly_canonical(JETPERF_BUILD_DIR, ec).string();
  const auto exe = platform::own_executable();
  return pick_web_root(installed_web_root(), JETPERF_SOURCE_WEB_ROOT, exe && !ec && in_build_tree(*exe, build_dir));
}

std::string daemon_config::listen_text() const {
  if (listen_host.find(':') != std::string::npos) {
    return "[" + listen_host + "]:" + std::to_string(listen_port);
  }
  return listen_host + ":" + std::to_string(listen_port);
}

std::vector<std::string> config_file_keys() {
  std::vector<std::string> keys;
  for (const auto& k : file_keys()) keys.push_back(k.first);
  return keys;
}

void set_config_value(daemon_config& config, const std::string& key, const std::string& value,
                      const std::string& where) {
  auto it = file_keys().find(key);
  if (it == file_keys().end()) {
    const auto near = nearest_key(key);
    fail(where, key, "unknown key" + (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
  }
  it->second(config, where, key, value);
}

void apply_config_file(daemon_config& config, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw config_error(path + ": cannot read config file: " + std::strerror(errno));
  std::string line;
  std::set<std::string> seen;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number);
    // A '#' starts a comment at the start of a line or after whitespace (paths may hold '#').
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
        line.resize(i);
        break;
      }
    }
    line = trim(line);
    if (line.empty()) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      throw config_error(where + ": expected 'key = value', got '" + line + "'");
    }
    const std::string key = trim(line.substr(0, eq));
    std::string value = trim(line.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    if (key.empty()) throw config_error(where + ": missing key before '='");
    if (!seen.insert(key).second) fail(where, key, "duplicate key");
    set_config_value(config, key, value, where);
  }
}

command_line parse_command_line(const std::vector<std::string>& args) {
  command_line result;
  struct flag_value {
    std::string key;
    std::string value;
    std::string flag;
  };
  std::vector<flag_value> flags;
  bool explicit_config = false;

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (auto text = exit_text_of(args, i)) {
      result.exit_now = true;
      result.exit_text = std::move(*text);
      return result;
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      throw config_error("unexpected argument '" + arg + "' (see --help)");
    }
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    }
    std::string key = name;
    for (char& c : key) {
      if (c == '-') c = '_';
    }
    const std::string flag = "--" + name;
    const bool is_bool = bool_keys().count(key) != 0;
    const bool known =
        is_bool || key == "config" || key == "ready_file" || file_keys().count(key) != 0;
    if (!known || name.find('_') != std::string::npos) {
      throw config_error(flag + ": unknown option (see --help)");
    }
    if (is_bool) {
      if (!has_value) value = "true";
    } else if (!has_value) {
      if (i + 1 >= args.size()) throw config_error(flag + ": missing value");
      value = args[++i];
    }
    if (key == "config") {
      if (value.empty()) throw config_error(flag + ": must not be empty");
      result.config.config_path = value;
      explicit_config = true;
      continue;
    }
    flags.push_back({key, value, flag});
  }

  daemon_config& c = result.config;
  if (explicit_config || file_exists(c.config_path)) apply_config_file(c, c.config_path);

  for (const auto& f : flags) {
    if (f.key == "restore_only") {
      c.restore_only = parse_bool(f.flag, "value", f.value);
    } else if (f.key == "require_token_for_reads") {
      c.require_token_for_reads = parse_bool(f.flag, "value", f.value);
    } else if (f.key == "ready_file") {
      c.ready_file = parse_path(f.flag, "value", f.value);
    } else {
      // Flag errors read "--max-connections: value: '0' is out of range ...".
      file_keys().at(f.key)(c, f.flag, "value", f.value);
    }
  }
  if (c.history_period_ms < c.sample_period_ms) {
    throw config_error("history_period_ms: " + std::to_string(c.history_period_ms) +
                       " is shorter than sample_period_ms " + std::to_string(c.sample_period_ms));
  }
  if (c.retention_days < c.retention_full_days) {
    throw config_error("retention_days: " + std::to_string(c.retention_days) + " is shorter than retention_full_days " +
                       std::to_string(c.retention_full_days) + " (samples are downsampled before they are dropped)");
  }
  if (c.fast_sample_period_ms > c.sample_period_ms) {
    throw config_error("fast_sample_period_ms: " + std::to_string(c.fast_sample_period_ms) +
                       " is longer than sample_period_ms " + std::to_string(c.sample_period_ms));
  }
  if (c.idle_sample_period_ms != 0 &&
      (c.idle_sample_period_ms < c.sample_period_ms || c.idle_sample_period_ms > c.history_period_ms)) {
    throw config_error("idle_sample_period_ms: " + std::to_string(c.idle_sample_period_ms) +
                       " must lie between sample_period_ms " + std::to_string(c.sample_period_ms) +
                       " and history_period_ms " + std::to_string(c.history_period_ms));
  }
  // Streams never end on their own: below the connection cap, so they cannot fill it.
  if (c.max_streams == 0) c.max_streams = std::max<std::size_t>(1, c.max_connections / 4);
  if (c.max_streams >= c.max_connections && c.max_connections > 1) {
    throw config_error("max_streams: " + std::to_string(c.max_streams) + " must be below max_connections " +
                       std::to_string(c.max_connections));
  }
  return result;
}

std::string usage_text() {
  return "Usage: jetperfd [options]\n"
         "Profiling daemon for NVIDIA Jetson boards (REST API).\n\n"
         "Options (each overrides the config file's key of the same name, '-' for '_'):\n"
         "  --config PATH              config file (default /etc/jetperf/jetperfd.conf)\n"
         "  --listen HOST:PORT         address to serve (default 127.0.0.1:7070; port 0 = any)\n"
         "  --db PATH                  SQLite database (default /var/lib/jetperf/jetperf.db)\n"
         "  --token-file PATH          API token, created 0600 when absent\n"
         "                             (default /var/lib/jetperf/token)\n"
         "  --board KIND               auto | sim:PROFILE | sim:PATH.json | jetson | dgpu | host (default auto)\n"
         "  --log-level LEVEL          trace, debug, info, warn, error, critical, off\n"
         "  --require-token-for-reads  GET requests need the token too (except /v1/health)\n"
         "  --sysfs-root PATH          root prefix for /sys and /proc reads (default /)\n"
         "  --nvpmodel PATH            nvpmodel program (default /usr/sbin/nvpmodel)\n"
         "  --tegrastats PATH          tegrastats program (default /usr/bin/tegrastats)\n"
         "  --sim-dir PATH             where simulated boards live (default /var/lib/jetperf/sim)\n"
         "  --sim-profile NAME         simulated board served by --board auto on a plain host\n"
         "                             (default orin-agx)\n"
         "  --board-name NAME          the lab's name for this board, on /metrics'\n"
         "                             jetperf_build_info{board} (default: the host name)\n"
         "  --sample-period-ms N       telemetry tick period, 1..1000 (default 10)\n"
         "  --fast-sample-period-ms N  tick period a point may ask for while its power sensors\n"
         "                             average over a shorter window, 1..sample period (default 1)\n"
         "  --idle-sample-period-ms N  tick period while no job runs, sample..history period\n"
         "                             (default 100, or the sample period when longer)\n"
         "  --history-period-ms N      period of stored history samples (default 1000)\n"
         "  --history-retention-h N    hours of history kept (default 24)\n"
         "  --retention-full-days D    days a finished job's samples stay at full rate, then\n"
         "                             1 s min/mean/max per channel (default 7)\n"
         "  --retention-days D         days until they are dropped; `jetperf pin ID` keeps a\n"
         "                             job's whole (default 90)\n"
         "  --thermal-limit-c N        fail a job above this temperature, 0 = off (default 95)\n"
         "  --max-connections N        open connections served at once (default 256)\n"
         "  --threads N                HTTP io threads (default 2)\n"
         "  --allowed-hosts A,B        host names requests may be addressed to, besides loopback,\n"
         "                             the listen address and this machine's name\n"
         "  --max-streams N            event streams open at once (default a quarter of\n"
         "                             --max-connections)\n"
         "  --max-streams-per-address N  event streams from one address (default 8)\n"
         "  --command-jobs BOOL        run clients' own programs (command jobs; default false)\n"
         "  --command-user NAME        the unprivileged account they run as (never root)\n"
         "  --command-dirs A,B         programs must lie inside these directories\n"
         "  --web-root PATH            the web page served at / (default " JETPERF_DEFAULT_WEB_ROOT ",\n"
         "                             before installing: " JETPERF_SOURCE_WEB_ROOT ")\n"
         "  --javascript-dir PATH      Debian's libjs-* files, served at /javascript/\n"
         "                             (default /usr/share/javascript)\n"
         "  --runtime-dir PATH         per-job runtime files (default /run/jetperf)\n"
         "  --max-trace-upload-mb N    largest trace attached to a job, streamed to disk\n"
         "                             (default 256)\n"
         "  --max-trace-attachments N  traces one job may have attached (default 8)\n"
         "  --max-trace-disk-mb N      attached traces of all jobs together (default 4096)\n"
         "  --ready-file PATH          write HOST:PORT here once listening\n"
         "  --restore-only             restore the board's saved settings and exit\n"
         "  --version                  print the version and exit\n"
         "  --write-sim-profile NAME   print a built-in simulated board's profile as a file for sim:PATH.json\n"
         "  --help                     print this help and exit\n";
}

}  // namespace jetperf::daemon
