#include <jetperf/kinds/command/command_spec.hpp>

#include <stdexcept>

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_table.hpp>
#include <jetperf/common/stored_spec.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>
#include <jetperf/platform/account_access.hpp>

namespace jetperf::kinds {

using namespace measure;  // the board-setting axes every sweeping kind shares

namespace {

// The search path for a bare program name: a fixed one (or the spec's own PATH), never the
// daemon's environment.
constexpr const char* k_default_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

std::string field(const std::string& name) { return "spec." + name; }

bool is_env_name(const std::string& s) {
  if (s.empty() || s.size() > 128 || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::string checked_text(const cell& v, const std::string& where) {
  if (!v.is_string()) throw validation_error(where, "must be a string, got " + json_text(v).substr(0, 80));
  const auto& s = v.as_string();
  if (s.size() > k_max_command_arg_bytes)
    throw validation_error(where, "longer than " + std::to_string(k_max_command_arg_bytes) + " bytes", "too_large");
  if (s.find('\0') != std::string::npos) throw validation_error(where, "holds a NUL byte");
  return s;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_regular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The helpers below run inside platform::as_account: every stat, access and realpath is the
// kernel's answer to the program's own account.

// Why `account` cannot run `path` ("" when it can): a directory on the way it cannot search,
// the file's own mode, or a script's interpreter it cannot run.
std::string why_not_executable(const std::string& path, const std::string& account) {
  const auto blocked = platform::blocking_directory(path);
  if (!blocked.empty()) return "not executable by " + account + " (" + blocked + ")";
  if (::access(path.c_str(), X_OK) != 0)
    return "not executable by " + account + " (" + platform::mode_and_owner(path) + ")";
  // A script runs through the interpreter its first line names, which must be runnable too.
  std::ifstream in(path, std::ios::binary);
  std::string first;
  if (in && std::getline(in, first) && first.rfind("#!", 0) == 0) {
    const auto words = common::split_trimmed(first.substr(2), ' ');
    const auto interpreter = words.empty() ? std::string() : words.front();
    if (!interpreter.empty() && interpreter.front() == '/' && (!is_regular(interpreter) || ::access(interpreter.c_str(), X_OK) != 0)) {
      const auto inner = is_regular(interpreter) ? why_not_executable(interpreter, account) : "no such file";
      return "its interpreter " + interpreter + " cannot be run by " + account + " (" + inner + ")";
    }
  }
  return {};
}

// argv[0] as an absolute, resolved path: a name is looked up in PATH, a relative path is taken
// from cwd. The allowed directories are checked on the resolved path, so a symbolic link cannot
// lead out of them.
bool inside_allowed_dirs(const std::string& resolved, const command_policy& policy) {
  if (policy.allowed_dirs.empty()) return true;
  for (const auto& dir : policy.allowed_dirs)
    if (resolved.rfind(dir + "/", 0) == 0) return true;
  return false;
}

std::string allowed_dirs_text(const command_policy& policy) {
  std::string dirs;
  for (const auto& d : policy.allowed_dirs) dirs += (dirs.empty() ? "" : ", ") + d;
  return dirs;
}

std::string resolve_program(const std::string& name, const std::string& cwd, const std::string& path_list,
                            const command_policy& policy) {
  const auto& account = policy.account.name;
  std::string candidate;
  if (name.find('/') != std::string::npos) {
    candidate = name.front() == '/' ? name : cwd + "/" + name;
    if (!is_regular(candidate)) {
      const auto blocked = platform::blocking_directory(candidate);
      if (!blocked.empty())
        throw validation_error(field("argv"), candidate + ": not executable by " + account + " (" + blocked + ")", "forbidden");
      throw validation_error(field("argv"), "argv[0] '" + name + "' is not an executable file", "not_found");
    }
    const auto why = why_not_executable(candidate, account);
    if (!why.empty()) throw validation_error(field("argv"), candidate + ": " + why, "forbidden");
  } else {
    std::string refused;  // the first file of that name the account may not run, and why
    for (const auto& dir : common::split_trimmed(path_list, ':')) {
      if (dir.empty() || dir.front() != '/' || !is_regular(dir + "/" + name)) continue;
      const auto why = why_not_executable(dir + "/" + name, account);
      if (why.empty()) {
        candidate = dir + "/" + name;
        break;
      }
      if (refused.empty()) refused = dir + "/" + name + ": " + why;
    }
    if (candidate.empty() && !refused.empty()) throw validation_error(field("argv"), refused, "forbidden");
    if (candidate.empty())
      throw validation_error(field("argv"), "argv[0] '" + name + "' is not found in " + path_list, "not_found");
  }
  const auto resolved = real_path(candidate);
  if (resolved.empty()) throw validation_error(field("argv"), "argv[0] '" + name + "' cannot be resolved", "not_found");
  if (!inside_allowed_dirs(resolved, policy))
    throw validation_error(field("argv"),
                           "program " + resolved + " is outside the allowed directories (" + allowed_dirs_text(policy) + ")",
                           "forbidden");
  return resolved;
}

// cwd as the account would enter it: a directory it can reach and search.
void check_cwd(const std::string& cwd, const std::string& account) {
  struct stat st {};
  if (::stat(cwd.c_str(), &st) != 0) {
    const auto blocked = platform::blocking_directory(cwd);
    if (!blocked.empty())
      throw validation_error(field("cwd"), cwd + ": not reachable by " + account + " (" + blocked + ")", "forbidden");
    throw validation_error(field("cwd"), "no directory " + cwd, "not_found");
  }
  if (!S_ISDIR(st.st_mode)) throw validation_error(field("cwd"), "no directory " + cwd, "not_found");
  if (::access(cwd.c_str(), X_OK) != 0)
    throw validation_error(field("cwd"), cwd + ": cannot be entered by " + account + " (" + platform::mode_and_owner(cwd) + ")",
                           "forbidden");
}

}  // namespace

namespace {

// The fields before the board axes and after them; the bound ones are parsed, stored and served
// from here, argv, program, cwd and env by parse() (checked as the command's account sees them).
const spec_table<command_spec>& command_table() {
  using t = spec_type;
  static const spec_table<command_spec> table({
      {{"argv", t::list, nullptr,
        "the program and its arguments (executed with execve, never a shell; a bare name is looked up in PATH)", 1,
        static_cast<double>(k_max_command_args), {}}, {}},
      {{"program", t::text, nullptr,
        "argv[0] as resolved at submission (absolute, links followed); the daemon fills it in, and a value "
        "given is not used: argv[0] is resolved again, so a stored spec can be submitted as it stands (rerun)",
        0, 0, {}}, {}},
      {{"cwd", t::text, nullptr, "working directory (an absolute path; default: the account's home, else /)", 0, 0, {}}, {}},
      {{"env", t::object, record(),
        "environment variables {NAME: value}; the daemon's own environment is not passed on (PATH, HOME, USER, "
        "LOGNAME and JETPERF_MARKERS are set)", 0, static_cast<double>(k_max_command_env), {}}, {}},
      {{"timeout_s", t::number, 3600.0, "each run is killed (its whole process group) after this many seconds",
        0.01, 7 * 86400, {}}, &command_spec::timeout_s},
      {{"repeats", t::integer, 1, "measured runs per board setting (one row each)", 1, 10000, {}}, &command_spec::repeats},
      {{"warmup_runs", t::integer, 0, "unmeasured runs before the first measured one of each setting", 0, 100, {}},
       &command_spec::warmup_runs},
      {{"idle_s", t::number, 1.0, "seconds of idle baseline per setting (dynamic energy is measured over it; 0: none)",
        0, 60, {}}, &command_spec::idle_s},
      {{"max_processes", t::integer, nullptr,
        "processes and threads a run may have alive at once (its cgroup's pids.max; default and ceiling: the "
        "daemon's command_max_processes)", 1, 1'000'000, {}}, &command_spec::max_processes},
      {{"max_memory_mb", t::number, nullptr,
        "MiB of memory a run may use, no swap past it (its cgroup's memory.max; default and ceiling: the daemon's "
        "command_max_memory_mb)", 16, 1 << 30, {}}, &command_spec::max_memory_mb},
  });
  return table;
}

const spec_table<command_spec>& command_table_after_axes() {
  static const spec_table<command_spec> table({
      {{"cooldown_s", spec_type::number, 0.0, "seconds of rest before each run", 0, 3600, {}}, &command_spec::cooldown_s},
  });
  return table;
}

}  // namespace

const std::vector<spec_field>& command_spec_fields() {
  static const std::vector<spec_field> fields = measure::with_contention_fields(
      common::with_board_axes(command_table().declarations(), command_table_after_axes().declarations()));
  return fields;
}

namespace {


std::vector<std::string> parse_argv(const record& spec) {
  const auto* argv = given_field(spec, "argv");
  if (!argv) throw validation_error(field("argv"), "argv is required: the program and its arguments");
  if (!argv->is_list() || argv->as_list().empty())
    throw validation_error(field("argv"), "argv must be a non-empty list of strings, e.g. [\"python3\", \"train.py\"]");
  const auto& items = argv->as_list();
  if (items.size() > k_max_command_args)
    throw validation_error(field("argv"), "more than " + std::to_string(k_max_command_args) + " arguments", "too_large");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < items.size(); ++i) out.push_back(checked_text(items[i], field("argv[" + std::to_string(i) + "]")));
  if (out[0].empty()) throw validation_error(field("argv[0]"), "the program name is empty");
  return out;
}

std::map<std::string, std::string> parse_env(const record& spec) {
  std::map<std::string, std::string> out;
  const auto* env = given_field(spec, "env");
  if (!env) return out;
  if (!env->is_record()) throw validation_error(field("env"), "env must be an object {NAME: value}");
  if (env->as_record().size() > k_max_command_env)
    throw validation_error(field("env"), "more than " + std::to_string(k_max_command_env) + " variables", "too_large");
  for (const auto& [name, value] : env->as_record()) {
    if (!is_env_name(name)) throw validation_error(field("env." + name.substr(0, 64)), "not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
    if (name.rfind("JETPERF_", 0) == 0)
      throw validation_error(field("env." + name), "JETPERF_* variables are the daemon's to set", "forbidden");
    out[name] = checked_text(value, field("env." + name));
  }
  return out;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// A run's limits: whole processes, and neither above what the daemon allows any run.
void check_limits(const command_spec& s, const platform::run_limits& ceiling) {
  if (s.max_processes) {
    if (*s.max_processes != std::floor(*s.max_processes))
      throw validation_error(field("max_processes"), "max_processes must be a whole number");
    if (ceiling.max_processes && *s.max_processes > static_cast<double>(ceiling.max_processes))
      throw validation_error(field("max_processes"), "max_processes " + number_text(*s.max_processes) +
                                                         " is above this daemon's command_max_processes, " +
                                                         std::to_string(ceiling.max_processes), "above_limit");
  }
  const double ceiling_mb = static_cast<double>(ceiling.max_memory_bytes >> 20);
  if (s.max_memory_mb && ceiling.max_memory_bytes && *s.max_memory_mb > ceiling_mb)
    throw validation_error(field("max_memory_mb"), "max_memory_mb " + number_text(*s.max_memory_mb) +
                                                       " is above this daemon's command_max_memory_mb, " +
                                                       number_text(ceiling_mb), "above_limit");
}

}  // namespace

platform::run_limits run_limits_of(const command_spec& spec, const command_policy& policy) {
  platform::run_limits l = policy.limits;
  if (spec.max_processes) l.max_processes = static_cast<std::uint64_t>(*spec.max_processes);
  if (spec.max_memory_mb) l.max_memory_bytes = static_cast<std::uint64_t>(*spec.max_memory_mb * 1048576.0);
  return l;
}

command_spec command_spec::parse(const record& spec, const platform::board_offer& offered, const command_policy& policy) {
  if (!policy.enabled) throw validation_error("kind", policy.disabled_reason, "forbidden");
  check_spec_fields(spec, command_spec_fields());
  command_spec s;
  s.argv = parse_argv(spec);
  s.env = parse_env(spec);

  if (const auto* program = given_field(spec, "program")) checked_text(*program, field("program"));
  const auto* cwd = given_field(spec, "cwd");
  const bool cwd_given = cwd != nullptr;
  if (cwd_given) {
    s.cwd = checked_text(*cwd, field("cwd"));
    if (s.cwd.empty() || s.cwd.front() != '/') throw validation_error(field("cwd"), "cwd must be an absolute path");
  }
  const auto path = s.env.count("PATH") ? s.env["PATH"] : std::string(k_default_path);
  // The program and its directory as its account will meet them at run time (not as root).
  platform::as_account(policy.account, policy.switch_user, [&] {
    if (!cwd_given)
      s.cwd = is_directory(policy.account.home) && ::access(policy.account.home.c_str(), X_OK) == 0 ? policy.account.home : "/";
    check_cwd(s.cwd, policy.account.name);
    s.program = resolve_program(s.argv[0], s.cwd, path, policy);
  });
  command_table().parse(spec, s);
  command_table_after_axes().parse(spec, s);
  check_limits(s, policy.limits);
  common::normalize_board_axes(spec, offered, s.board_axes);
  s.contention = measure::contention_policy::parse(spec);
  const auto points = static_cast<double>(common::board_setting_count(s.board_axes)) * static_cast<double>(s.repeats);
  if (points > static_cast<double>(k_max_command_points))
    throw validation_error(field("repeats"), "the job would have " + std::to_string(static_cast<long long>(points)) +
                                                 " runs, more than " + std::to_string(k_max_command_points), "too_large");
  return s;
}

command_spec command_spec::stored(const record& j) {
  const stored_spec r(j);
  command_spec s;
  s.argv = r.texts("argv");
  s.program = r.text("program");
  s.cwd = r.text("cwd");
  if (r.at("env").is_record())
    for (const auto& [name, value] : r.at("env").as_record()) s.env[name] = value.text().value_or("");
  command_table().stored(j, s);
  command_table_after_axes().stored(j, s);
  s.board_axes = common::stored_board_axes(j);
  s.contention = measure::contention_policy::stored(j);
  return s;
}

record command_spec::to_record() const {
  record j = board_axes;
  j.set("argv", argv);
  j.set("program", program);
  j.set("cwd", cwd);
  j.set("env", env);
  command_table().put(*this, j);
  command_table_after_axes().put(*this, j);
  // Unset limits are the daemon's ceilings: left out, so that a spec stored before they existed
  // reads back as it was stored.
  for (const char* limit : {"max_processes", "max_memory_mb"})
    if (const auto* v = j.find(limit); v && v->is_null()) j.erase(limit);
  contention.put(j);
  return j;
}

record command_point::to_record() const {
  record p = setting_record(setting);
  p.set("repeat", repeat);
  return p;
}

command_point command_point::of(const record& point) {
  const auto* repeat = point.find("repeat");
  return {setting_of_point(point), repeat && repeat->is_number() ? *repeat->integer() : 0};
}

std::vector<command_point> expand(const command_spec& spec) {
  std::vector<command_point> points;
  for (const auto& setting : common::board_setting_points(spec.board_axes))
    for (std::int64_t r = 0; r < spec.repeats; ++r) points.push_back({setting_of_point(setting), r});
  return points;
}

std::vector<std::string> command_environment(const command_spec& spec, const platform::user_account& account,
                                             const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env{{"PATH", k_default_path},
                                         {"HOME", account.home.empty() ? "/" : account.home},
                                         {"USER", account.name},
                                         {"LOGNAME", account.name}};
  for (const auto& kv : spec.env) env[kv.first] = kv.second;
  for (const auto& kv : extra) env[kv.first] = kv.second;
  std::vector<std::string> out;
  for (const auto& kv : env) out.push_back(kv.first + "=" + kv.second);
  return out;
}

std::string program_to_run(const std::string& program, const command_policy& policy) {
  const auto resolved = real_path(program);
  if (resolved.empty()) throw std::runtime_error("program " + program + " is gone (it was there when the job was submitted)");
  if (!inside_allowed_dirs(resolved, policy))
    throw std::runtime_error("program " + program + " now resolves to " + resolved + ", outside the allowed directories (" +
                             allowed_dirs_text(policy) + "): it was replaced after the job was submitted, and is not run");
  return resolved;
}

}  // namespace jetperf::kinds
