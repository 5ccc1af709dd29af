// The command kind: its spec refuses what the daemon's policy and the machine do not allow
// (field by field), resolves the program once, and a run's row carries its exit status, output
// tails, power, energy and marked phases.
#include <gtest/gtest.h>

#include "support/json_workload.hpp"

#include <limits.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/kinds/command/command_kind.hpp>
#include <jetperf/kinds/command/command_spec.hpp>
#include <jetperf/platform/user_account.hpp>
#include <support/temp_dir.hpp>

#include "../declared_columns.hpp"

using namespace jetperf;
using nlohmann::json;

namespace {

// Programs run as the test's own account (no switch): the switch is user_process_test's.
kinds::command_policy policy_in(const std::string& runtime_dir, std::vector<std::string> dirs = {}) {
  kinds::command_policy p;
  p.enabled = true;
  p.account = platform::current_account();
  p.switch_user = false;
  p.allowed_dirs = std::move(dirs);
  p.runtime_dir = runtime_dir;
  return p;
}

std::string write_script(const test::temp_dir& dir, const std::string& name, const std::string& body) {
  const auto path = dir.file(name);
  test::write_file(path, "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

std::string field_of(const kinds::command_policy& policy, const json& spec, std::string* code = nullptr) {
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy));
  try {
    w->normalize(spec, {});
  } catch (const validation_error& e) {
    if (code) *code = e.code();
    return e.field();
  }
  return "<accepted>";
}

// Total power 7.5 W, rail CPU 2 W, every millisecond.
class constant_power final : public telemetry::sample_source {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"rail.CPU", "W", telemetry::channel_kind::power, "test"},
            {"power.total", "W", telemetry::channel_kind::power, "test"}};
  }
  std::vector<telemetry::sample> window(std::int64_t from, std::int64_t to) const override {
    std::vector<telemetry::sample> out;
    for (auto t = from - from % 1000000; t <= to; t += 1000000) {
      if (t < from) continue;
      out.push_back({0, t, 2.0});
      out.push_back({1, t, 7.5});
    }
    return out;
  }
  std::optional<int> total_power_channel() const override { return 1; }
  double update_period_s() const override { return 0.001; }
};

}  // namespace

TEST(command_spec, is_refused_naming_the_config_keys_while_command_jobs_are_off) {
  std::string code;
  EXPECT_EQ(field_of(kinds::command_policy{}, {{"argv", {"/bin/true"}}}, &code), "kind");
  EXPECT_EQ(code, "forbidden");
  try {
    kinds::make_command_kind({})->normalize({{"argv", {"/bin/true"}}}, {});
  } catch (const validation_error& e) {
    EXPECT_NE(std::string(e.what()).find("command_jobs = true"), std::string::npos) << e.what();
  }
}

TEST(command_spec, bad_specs_name_their_field) {
  test::temp_dir dir;
  const auto p = policy_in(dir.path());
  EXPECT_EQ(field_of(p, json::object()), "spec.argv");
  EXPECT_EQ(field_of(p, {{"argv", "/bin/true"}}), "spec.argv");
  EXPECT_EQ(field_of(p, {{"argv", json::array()}}), "spec.argv");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true", 3}}}), "spec.argv[1]");
  EXPECT_EQ(field_of(p, {{"argv", {""}}}), "spec.argv[0]");
  EXPECT_EQ(field_of(p, {{"argv", {std::string("a\0b", 3)}}}), "spec.argv[0]");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true", std::string(5000, 'x')}}}), "spec.argv[1]");
  EXPECT_EQ(field_of(p, {{"argv", json(std::vector<std::string>(300, "/bin/true"))}}), "spec.argv");
  EXPECT_EQ(field_of(p, {{"argv", {"no-such-program-anywhere"}}}), "spec.argv");
  test::write_file(dir.file("data.txt"), "not a program");
  EXPECT_EQ(field_of(p, {{"argv", {dir.file("data.txt")}}}), "spec.argv");  // not executable
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"cwd", "relative/dir"}}), "spec.cwd");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"cwd", dir.file("missing")}}), "spec.cwd");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"env", {{"1BAD", "x"}}}}), "spec.env.1BAD");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"env", {{"JETPERF_MARKERS", "/tmp/x"}}}}), "spec.env.JETPERF_MARKERS");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"env", {{"A", 1}}}}), "spec.env.A");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"env", "A=1"}}), "spec.env");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"timeout_s", 0}}), "spec.timeout_s");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"repeats", 0}}), "spec.repeats");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"warmup_runs", 101}}), "spec.warmup_runs");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"shell", true}}), "spec.shell");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"cpu_freqs", {"max"}}}), "spec.cpu_freqs");  // no board
  EXPECT_EQ(field_of(p, {{"argv", {"true"}}, {"repeats", 3}}), "<accepted>");
}

// A run's limits: its own below the daemon's ceilings (jetperfd.conf's command_max_processes and
// command_max_memory_mb), which are also its defaults.
TEST(command_spec, a_runs_limits_stay_under_the_daemons_ceilings_which_are_their_defaults) {
  test::temp_dir dir;
  auto p = policy_in(dir.path());
  p.limits = {100, 2048ull << 20};
  std::string code;
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"max_processes", 101}}, &code), "spec.max_processes");
  EXPECT_EQ(code, "above_limit");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"max_memory_mb", 2049}}, &code), "spec.max_memory_mb");
  EXPECT_EQ(code, "above_limit");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"max_processes", 2.5}}), "spec.max_processes");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"max_processes", "10"}}), "spec.max_processes");
  EXPECT_EQ(field_of(p, {{"argv", {"/bin/true"}}, {"max_memory_mb", 8}}), "spec.max_memory_mb");
  auto w = jetperf::test::json_workload(kinds::make_command_kind(p));
  const auto own = w->normalize({{"argv", {"/bin/true"}}, {"max_processes", 40}, {"max_memory_mb", 512}}, {});
  const auto limits = kinds::run_limits_of(kinds::command_spec::stored(jetperf::record_of(own)), p);
  EXPECT_EQ(limits.max_processes, 40u);
  EXPECT_EQ(limits.max_memory_bytes, 512ull << 20);
  const auto defaults = w->normalize({{"argv", {"/bin/true"}}}, {});
  EXPECT_FALSE(defaults.contains("max_processes")) << "unset: left out, as specs stored before it read";
  const auto ceiling = kinds::run_limits_of(kinds::command_spec::stored(jetperf::record_of(defaults)), p);
  EXPECT_EQ(ceiling.max_processes, 100u);
  EXPECT_EQ(ceiling.max_memory_bytes, 2048ull << 20);
}

// The run's program meets its limits (here as rlimits: this host's cgroup v2 has no pids or
// memory controller, and the test runs without a cgroup).
TEST(command_kind, a_run_is_held_to_its_limits) {
  test::temp_dir dir;
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  measure::point_context ctx;
  const auto spec = w->normalize(
      {{"argv", {"/usr/bin/awk", "/Max data size|Max processes/ { print $(NF - 1) }", "/proc/self/limits"}}, {"max_processes", 50}, {"max_memory_mb", 100}, {"idle_s", 0}}, {});
  const auto r = w->run_point(ctx, spec, w->expand(spec).at(0));
  EXPECT_EQ(r.status, "ok");
  EXPECT_EQ(jetperf::to_json(r.metrics)["stdout_tail"], "104857600\n50\n");
}

// A run's cgroup events are its failure's cause, even where the program exited 0.
TEST(command_kind, a_limit_the_run_met_is_its_failures_cause) {
  const platform::run_limits limits{64, 512ull << 20};
  platform::user_process_result run;
  run.exit_code = 0;
  EXPECT_EQ(kinds::run_failure(run, 10, limits), "");
  run.limit_events.pids_refused = 3;
  EXPECT_EQ(kinds::run_failure(run, 10, limits), "pids: 3 fork(s) refused at max_processes = 64");
  run.limit_events.oom_kills = 1;
  run.exit_code = -1;
  run.term_signal = 9;
  EXPECT_EQ(kinds::run_failure(run, 10, limits), "oom: 1 process(es) killed past max_memory_mb = 512 MiB");
  run.limit_events = {};
  EXPECT_EQ(kinds::run_failure(run, 10, limits), "ended by signal 9");
  run.term_signal = 0;
  run.exit_code = 2;
  EXPECT_EQ(kinds::run_failure(run, 10, limits), "exit status 2");
}

TEST(command_spec, resolves_the_program_once_and_keeps_it_inside_the_allowed_directories) {
  test::temp_dir dir, outside;
  const auto inside = write_script(dir, "prog.sh", "exit 0");
  const auto escaped = write_script(outside, "evil.sh", "exit 0");
  ::symlink(escaped.c_str(), dir.file("link.sh").c_str());
  const auto p = policy_in(dir.path(), {dir.path()});
  auto w = jetperf::test::json_workload(kinds::make_command_kind(p));
  const auto spec = w->normalize({{"argv", {"./prog.sh", "x"}}, {"cwd", dir.path()}}, {});
  char resolved[PATH_MAX];
  ASSERT_TRUE(::realpath(inside.c_str(), resolved));
  EXPECT_EQ(spec["program"], resolved);
  EXPECT_EQ(spec["argv"], json({"./prog.sh", "x"}));
  std::string code;
  EXPECT_EQ(field_of(p, {{"argv", {dir.file("link.sh")}}}, &code), "spec.argv");  // a link out of the directory
  EXPECT_EQ(code, "forbidden");
  EXPECT_EQ(field_of(p, {{"argv", {"sh"}}}, &code), "spec.argv");
  // A bare name is looked up in the spec's PATH, not the daemon's.
  EXPECT_EQ(field_of(p, {{"argv", {"prog.sh"}}, {"env", {{"PATH", dir.path()}}}}), "<accepted>");
  // The stored spec, program included, is accepted again as it stands (jetperf rerun); a program
  // given is not trusted: argv[0] is resolved again.
  EXPECT_EQ(w->normalize(spec, {}), spec);
  auto edited = spec;
  edited["program"] = "/bin/sh";
  EXPECT_EQ(w->normalize(edited, {}), spec);
  EXPECT_EQ(field_of(p, {{"argv", {inside}}, {"program", 3}}), "spec.program");
}

// A program or directory the account cannot reach is refused at submission, as the account sees
// it, saying why; a daemon that resolved it as root would fail only at run time, after the board
// was set up. nobody when the test is root (the daemon's case); the test's own account otherwise,
// which a 0000 directory keeps out too.
TEST(command_spec, a_program_or_cwd_its_account_cannot_reach_is_refused_saying_why) {
  const bool root = ::geteuid() == 0;
  test::temp_dir dir, open;
  auto p = policy_in(dir.path());
  if (root) {
    p.account = platform::lookup_unprivileged_account("nobody");
    p.switch_user = true;
  }
  const mode_t closed = root ? 0700 : 0000;
  const std::string closed_text = root ? "0700" : "0000";
  const auto home = dir.file("home");
  const auto program = write_script(dir, "home/train.sh", "exit 0");
  test::write_file(home + "/data/x", "");
  ::chmod(dir.path().c_str(), 0755);
  ::chmod(open.path().c_str(), 0755);
  ::chmod(home.c_str(), closed);
  const auto refusal = [&](const json& spec, std::string* field) {
    try {
      jetperf::test::json_workload(kinds::make_command_kind(p))->normalize(spec, {});
    } catch (const validation_error& e) {
      *field = e.field();
      EXPECT_EQ(e.code(), "forbidden") << e.what();
      return std::string(e.what());
    }
    *field = "<accepted>";
    return std::string();
  };
  const auto owner = platform::current_account().name;
  std::string field;
  EXPECT_EQ(refusal({{"argv", {program}}}, &field),
            program + ": not executable by " + p.account.name + " (" + home + " is " + closed_text + ", owner " + owner + ")");
  EXPECT_EQ(field, "spec.argv");
  EXPECT_EQ(refusal({{"argv", {"/bin/true"}}, {"cwd", home}}, &field),
            home + ": cannot be entered by " + p.account.name + " (mode " + closed_text + ", owner " + owner + ")");
  EXPECT_EQ(field, "spec.cwd");
  // Behind the closed directory, a path that exists and one that does not read the same.
  const auto deep = refusal({{"argv", {"/bin/true"}}, {"cwd", home + "/data"}}, &field);
  EXPECT_EQ(field, "spec.cwd");
  EXPECT_EQ(deep, home + "/data: not reachable by " + p.account.name + " (" + home + " is " + closed_text + ", owner " + owner + ")");
  const auto missing = refusal({{"argv", {"/bin/true"}}, {"cwd", home + "/nothing"}}, &field);
  EXPECT_EQ(missing.substr(missing.find(':')), deep.substr(deep.find(':')));
  // A script whose interpreter the account cannot run.
  test::write_file(open.file("interp"), "");
  ::chmod(open.file("interp").c_str(), 0644);
  const auto script = write_script(open, "run.sh", "");
  test::write_file(script, "#!" + open.file("interp") + " -x\n");
  ::chmod(script.c_str(), 0755);
  EXPECT_NE(refusal({{"argv", {script}}}, &field).find("its interpreter " + open.file("interp") + " cannot be run by"),
            std::string::npos);
  EXPECT_EQ(field, "spec.argv");
  ::chmod(home.c_str(), 0755);
  EXPECT_EQ(refusal({{"argv", {program}}, {"cwd", home}}, &field), "");
  EXPECT_EQ(field, "<accepted>");
}

TEST(command_spec, defaults_and_points_setting_outermost_then_repeat) {
  test::temp_dir dir;
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  const auto spec = w->normalize({{"argv", {"/bin/true"}}, {"repeats", 3}}, {});
  EXPECT_DOUBLE_EQ(spec["timeout_s"].get<double>(), 3600.0);
  EXPECT_EQ(spec["warmup_runs"], 0);
  EXPECT_DOUBLE_EQ(spec["idle_s"].get<double>(), 1.0);
  EXPECT_EQ(spec["env"], json::object());
  const auto points = w->expand(spec);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2]["repeat"], 2);
}

TEST(command_spec, the_program_gets_only_its_own_environment) {
  test::temp_dir dir;
  auto spec = kinds::command_spec::stored(kinds::make_command_kind(policy_in(dir.path()))->normalize(
      jetperf::test::spec_of({{"argv", {"/bin/true"}}, {"env", {{"PATH", "/opt/x"}, {"LANG", "C"}}}}), {}));
  auto account = platform::current_account();
  account.home = "/home/someone";
  account.name = "someone";
  const auto env = kinds::command_environment(spec, account, {{"JETPERF_MARKERS", "/run/jetperf/job-1.markers"}});
  EXPECT_EQ(env, (std::vector<std::string>{"HOME=/home/someone", "JETPERF_MARKERS=/run/jetperf/job-1.markers", "LANG=C",
                                           "LOGNAME=someone", "PATH=/opt/x", "USER=someone"}));
}

TEST(command_kind, a_run_reports_exit_status_tails_power_energy_and_phases) {
  test::temp_dir dir;
  const auto prog = write_script(dir, "prog.sh", "echo hello; echo oops >&2; sleep 0.2; exit 4");
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  constant_power source;
  measure::point_context ctx;
  ctx.job_id = 7;
  ctx.telemetry = &source;
  const auto spec = w->normalize({{"argv", {prog}}, {"idle_s", 0.05}}, {});
  const auto r = w->run_point(ctx, spec, w->expand(spec).at(0));
  EXPECT_EQ(r.status, "failed");
  const auto m = jetperf::to_json(r.metrics);
  EXPECT_EQ(m["error"], "exit status 4");
  EXPECT_EQ(m["exit_code"], 4);
  EXPECT_EQ(m["stdout_tail"], "hello\n");
  EXPECT_EQ(m["stderr_tail"], "oops\n");
  EXPECT_GE(m["wall_s"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(m["power_w"].get<double>(), 7.5);
  EXPECT_DOUBLE_EQ(m["idle_power_w"].get<double>(), 7.5);
  EXPECT_NEAR(m["energy_j"].get<double>(), 7.5 * m["wall_s"].get<double>(), 1e-9);
  EXPECT_NEAR(m["dynamic_energy_j"].get<double>(), 0.0, 1e-9);
  EXPECT_NEAR(m["rail_energy_j"]["CPU"].get<double>(), 2.0 * m["wall_s"].get<double>(), 1e-9);
  EXPECT_EQ(m["phases"], json::object());
  EXPECT_EQ(test::undeclared_keys(*w, m), "");
  // The marker socket lived for the run only.
  EXPECT_NE(::access(dir.file("job-7.markers").c_str(), F_OK), 0);
}

// Issue 35, 5: a queued program replaced by a symbolic link out of command_dirs ran /usr/bin/id.
// The program is checked again when its run starts, and the file checked is the file run.
TEST(command_kind, a_program_replaced_after_submission_by_a_link_out_of_the_directories_is_not_run) {
  test::temp_dir dir, outside;
  const auto prog = write_script(dir, "prog.sh", "exit 0");
  const auto evil = write_script(outside, "evil.sh", "touch " + outside.file("ran") + "; exit 0");
  const auto p = policy_in(dir.path(), {dir.path()});
  auto w = jetperf::test::json_workload(kinds::make_command_kind(p));
  const auto spec = w->normalize({{"argv", {prog}}, {"idle_s", 0}}, {});
  char resolved[PATH_MAX];
  ASSERT_TRUE(::realpath(prog.c_str(), resolved));
  EXPECT_EQ(kinds::program_to_run(spec["program"].get<std::string>(), p), resolved);
  // Swapped while the job waited in the queue.
  ASSERT_EQ(::unlink(prog.c_str()), 0);
  ASSERT_EQ(::symlink(evil.c_str(), prog.c_str()), 0);
  measure::point_context ctx;
  try {
    w->run_point(ctx, spec, w->expand(spec).at(0));
    ADD_FAILURE() << "the replaced program was run";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the allowed directories"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("replaced after the job was submitted"), std::string::npos) << e.what();
  }
  EXPECT_NE(::access(outside.file("ran").c_str(), F_OK), 0) << "the program outside ran";
  // Gone altogether: said so.
  ASSERT_EQ(::unlink(prog.c_str()), 0);
  try {
    kinds::program_to_run(spec["program"].get<std::string>(), p);
    ADD_FAILURE() << "a missing program was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is gone"), std::string::npos) << e.what();
  }
}

TEST(command_kind, a_run_past_its_timeout_fails_saying_so) {
  test::temp_dir dir;
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  measure::point_context ctx;
  const auto spec = w->normalize({{"argv", {"/bin/sleep", "30"}}, {"timeout_s", 0.2}, {"idle_s", 0}}, {});
  const auto r = w->run_point(ctx, spec, w->expand(spec).at(0));
  EXPECT_EQ(r.status, "failed");
  EXPECT_EQ(jetperf::to_json(r.metrics)["timed_out"], true);
  EXPECT_EQ(jetperf::to_json(r.metrics)["stop_reason"], "timeout");
  EXPECT_NE(jetperf::to_json(r.metrics)["error"].get<std::string>().find("timed out"), std::string::npos);
  EXPECT_LT(jetperf::to_json(r.metrics)["wall_s"].get<double>(), 5.0);
}

TEST(command_kind, warmup_runs_come_before_the_first_run_of_a_setting_only) {
  test::temp_dir dir;
  const auto log = dir.file("runs.log");
  const auto prog = write_script(dir, "count.sh", "echo run >> " + log);
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  measure::point_context ctx;
  const auto spec = w->normalize({{"argv", {prog}}, {"warmup_runs", 2}, {"repeats", 2}, {"idle_s", 0}}, {});
  const auto points = w->expand(spec);
  const auto first = w->run_point(ctx, spec, points.at(0));
  const auto second = w->run_point(ctx, spec, points.at(1));
  EXPECT_EQ(jetperf::to_json(first.metrics)["warmup_exit_codes"], json({0, 0}));
  EXPECT_EQ(jetperf::to_json(second.metrics)["warmup_exit_codes"], json::array());
  EXPECT_EQ(test::read_file(log), "run\nrun\nrun\nrun\n");
}

TEST(command_kind, jetperf_run_is_unique_within_the_job_across_repeats_and_warmups) {
  test::temp_dir dir;
  const auto log = dir.file("runs.log");
  const auto prog = write_script(dir, "ids.sh", "echo $JETPERF_RUN/$JETPERF_REPEAT >> " + log);
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  const auto spec = w->normalize({{"argv", {prog}}, {"warmup_runs", 1}, {"repeats", 2}, {"idle_s", 0}}, {});
  const auto points = w->expand(spec);
  for (std::size_t i = 0; i < points.size(); ++i) {
    measure::point_context ctx;
    ctx.index = static_cast<std::int64_t>(i) + 5;  // as the runner numbers them: the job's point index
    w->run_point(ctx, spec, points[i]);
  }
  EXPECT_EQ(test::read_file(log), "warmup-5-1/-1\n5/0\n6/1\n");
}

TEST(command_kind, estimates_take_the_programs_time_from_its_earlier_runs) {
  test::temp_dir dir;
  const auto prog = write_script(dir, "prog.sh", "exit 0");
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  const auto spec = w->normalize({{"argv", {prog, "a"}}, {"warmup_runs", 1}, {"repeats", 2}, {"idle_s", 0.5}}, {});
  const auto points = w->expand(spec);
  // Before any run: the protocol alone (the first repeat's idle).
  measure::estimate_context none;
  EXPECT_EQ(w->estimate_points_s(spec, points, none), (std::vector<double>{0.5, 0.0}));
  // A run of this command took 2 s: the first repeat has its warm-up, its idle and its run.
  measure::run_cost asked;
  measure::estimate_context learned;
  learned.run = [&](const measure::run_cost& c) {
    asked = c;
    return measure::run_time{2.0, 0.0};
  };
  EXPECT_EQ(w->estimate_points_s(spec, points, learned), (std::vector<double>{0.5 + 2.0 + 2.0, 2.0}));
  // On a loaded host each contended run is run again: three runs per point, warm-up and idle once.
  learned.window_repeats = 3;
  EXPECT_EQ(w->estimate_points_s(spec, points, learned), (std::vector<double>{0.5 + 2.0 + 2.0 + 4.0, 6.0}));
  learned.window_repeats = 1;
  // The class it asks for is the class its runs are recorded under; another argument, another class.
  measure::point_context ctx;
  const auto r = w->run_point(ctx, spec, points.at(1));
  ASSERT_TRUE(r.cost);
  EXPECT_EQ(r.cost->cls, asked.cls);
  EXPECT_EQ(r.cost->cls.rfind("command/prog.sh/", 0), 0u) << r.cost->cls;
  EXPECT_GT(r.run_s, 0.0);
  const auto other = w->normalize({{"argv", {prog, "b"}}, {"idle_s", 0}}, {});
  w->estimate_points_s(other, w->expand(other), learned);
  EXPECT_NE(asked.cls, r.cost->cls);
}

TEST(command_kind, the_summary_gives_medians_per_setting_and_phase_means_over_the_runs_that_have_them) {
  test::temp_dir dir;
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  const auto point = [](std::int64_t index, double wall, json energy, json phases, const std::string& status = "ok") {
    store::point_record p;
    p.index = index;
    p.status = status;
    p.params = {{"cpu_freq_khz", 115200}, {"repeat", index}};
    p.metrics = {{"wall_s", wall}, {"energy_j", std::move(energy)}, {"phases", std::move(phases)}};
    return p;
  };
  const auto summary = w->summarize(
      json::object(),
      {point(0, 1.0, 10.0, {{"busy", {{"time_s", 0.4}, {"energy_j", 4.0}}}}),
       point(1, 3.0, 30.0, {{"busy", {{"time_s", 0.6}, {"energy_j", nullptr}}}}),
       point(2, 2.0, nullptr, {{"busy", {{"time_s", 0.5}, {"energy_j", 6.0}}}}),
       point(3, 99.0, 99.0, json::object(), "failed")});
  ASSERT_EQ(summary["settings"].size(), 1u) << summary.dump();
  const auto& s = summary["settings"][0];
  EXPECT_EQ(s["setting"]["cpu_freq_khz"], 115200);
  EXPECT_EQ(s["runs"], 3);  // the failed run is not a result
  EXPECT_DOUBLE_EQ(s["wall_median_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(s["energy_median_j"].get<double>(), 20.0);  // of the two runs with a power reading
  const auto& busy = s["phases"]["busy"];
  EXPECT_EQ(busy["runs"], 3);
  EXPECT_NEAR(busy["time_mean_s"].get<double>(), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(busy["energy_mean_j"].get<double>(), 5.0);  // not diluted by the run without one
}

namespace {

// /proc/stat as the tests script it, on one core: this process's and its reaped children's CPU
// time are busy (as the kernel counts them), and every `others_every`-th call (a window's end)
// adds `others_s` taken by someone else.
class scripted_usage final : public platform::cpu_usage {
 public:
  platform::cpu_usage_snapshot now() const override {
    ++calls;
    if (others_every > 0 && calls % others_every == 0 && others_left > 0) {
      others += others_s;
      --others_left;
    }
    rusage self{}, children{};
    ::getrusage(RUSAGE_SELF, &self);
    ::getrusage(RUSAGE_CHILDREN, &children);
    const auto cpu = [](const rusage& u) {
      return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    };
    platform::cpu_usage_snapshot s;
    s.t_ns = monotonic_ns();
    s.cores = 1;
    s.own_s = cpu(self);
    s.busy_s = cpu(self) + cpu(children) + others;
    return s;
  }
  int others_every = 0;
  double others_s = 0;
  mutable int others_left = 0;
  mutable int calls = 0;
  mutable double others = 0;
};

// Others take the whole core in the first `windows` windows (each window: a start, then an end).
scripted_usage others_in_first(int windows) {
  scripted_usage u;
  u.others_every = 2;
  u.others_s = 10;
  u.others_left = windows;
  return u;
}

}  // namespace

TEST(command_kind, the_programs_own_cpu_time_is_not_contention) {
  test::temp_dir dir;
  // Half a second of one core spinning: all of it the program's (its rusage), none another's.
  const auto prog = write_script(dir, "spin.sh", "end=$(($(date +%s%N) + 500000000)); while [ $(date +%s%N) -lt $end ]; do :; done");
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  scripted_usage usage;
  measure::point_context ctx;
  ctx.cpu_usage = &usage;
  const auto spec = w->normalize({{"argv", {prog}}, {"idle_s", 0}}, {});
  const auto m = jetperf::to_json(w->run_point(ctx, spec, w->expand(spec).at(0)).metrics);
  EXPECT_LT(m["others_cpu_share"].get<double>(), 0.05) << m.dump();
  EXPECT_EQ(m["retries"], 0);
  EXPECT_EQ(std::count(m["flags"].begin(), m["flags"].end(), "contended"), 0) << m["flags"];
}

TEST(command_kind, a_contended_run_is_run_again_and_the_last_kept_with_the_flag) {
  test::temp_dir dir;
  const auto log = dir.file("runs.log");
  const auto prog = write_script(dir, "run.sh", "echo run >> " + log + "; sleep 0.05");
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  auto usage = others_in_first(2);
  measure::point_context ctx;
  ctx.cpu_usage = &usage;
  const auto spec = w->normalize({{"argv", {prog}}, {"idle_s", 0}}, {});
  EXPECT_EQ(spec["max_retries"], 2);
  const auto m = jetperf::to_json(w->run_point(ctx, spec, w->expand(spec).at(0)).metrics);
  EXPECT_EQ(test::read_file(log), "run\nrun\nrun\n");  // two contended, the third clean
  EXPECT_EQ(m["retries"], 2);
  EXPECT_LT(m["others_cpu_share"].get<double>(), 0.05);
  EXPECT_EQ(std::count(m["flags"].begin(), m["flags"].end(), "contended"), 0) << m["flags"];

  // With one retry allowed, both runs contended: the second is kept, flagged.
  test::write_file(log, "");
  auto busy = others_in_first(2);
  ctx.cpu_usage = &busy;
  const auto once = w->normalize({{"argv", {prog}}, {"idle_s", 0}, {"max_retries", 1}}, {});
  const auto kept = jetperf::to_json(w->run_point(ctx, once, w->expand(once).at(0)).metrics);
  EXPECT_EQ(test::read_file(log), "run\nrun\n");
  EXPECT_EQ(kept["retries"], 1);
  EXPECT_DOUBLE_EQ(kept["others_cpu_share"].get<double>(), 1.0);
  EXPECT_EQ(std::count(kept["flags"].begin(), kept["flags"].end(), "contended"), 1) << kept["flags"];
}

TEST(command_kind, a_failed_run_is_not_run_again_for_contention) {
  test::temp_dir dir;
  const auto log = dir.file("runs.log");
  const auto prog = write_script(dir, "fail.sh", "echo run >> " + log + "; exit 3");
  auto w = jetperf::test::json_workload(kinds::make_command_kind(policy_in(dir.path())));
  auto usage = others_in_first(5);
  measure::point_context ctx;
  ctx.cpu_usage = &usage;
  const auto spec = w->normalize({{"argv", {prog}}, {"idle_s", 0}}, {});
  const auto r = w->run_point(ctx, spec, w->expand(spec).at(0));
  EXPECT_EQ(r.status, "failed");
  EXPECT_EQ(test::read_file(log), "run\n");
}
