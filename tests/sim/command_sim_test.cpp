// Command jobs on a simulated AGX Orin with the real daemon and client: the researcher's own
// program (tests/programs/marked_phases.c, marking phases through deploy/markers/jetperf_markers.h)
// runs as an unprivileged account with only its own environment; its busy and sleeping phases
// show the power difference; cancel and timeout end its whole process group; and what the
// configuration does not allow is refused with the field named.
#include <gtest/gtest.h>

#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <jetperf/api/chrome_trace.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <support/eventually.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf;
using namespace jetperf::test;
using nlohmann::json;

namespace {

// The test programs, copied out of the build tree into a directory of their own that the
// command account can reach (0755): a clone may sit in a private home (root's is 0700, a user's
// 0750 on Ubuntu >= 21.04), which the account cannot traverse.
const std::string& programs_dir() {
  static const temp_dir dir;
  static const std::string path = [] {
    ::chmod(dir.path().c_str(), 0755);
    copy_file(test_programs_dir() + "/marked_phases", dir.file("marked_phases"), 0755);
    return dir.path();
  }();
  return path;
}

std::string program() { return programs_dir() + "/marked_phases"; }

// Live processes whose command line holds `needle` (what a killed group must not leave).
int processes_with(const std::string& needle) {
  int n = 0;
  DIR* dir = ::opendir("/proc");
  if (!dir) return -1;
  while (const dirent* e = ::readdir(dir)) {
    if (std::atoi(e->d_name) <= 0) continue;
    std::ifstream in(std::string("/proc/") + e->d_name + "/cmdline");
    std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmd.find(needle) != std::string::npos) ++n;
  }
  ::closedir(dir);
  return n;
}

json rows_of(http_client& http, std::int64_t id) {
  return json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"))["rows"];
}

// The job's trace with its power channels as the route wrote it before it streamed: the rows
// read whole from the daemon's database (every span, every sample over the spans' extent) and
// written at once. The title and metadata are the streamed answer's own.
json whole_trace(const std::string& db_path, std::int64_t id, const json& streamed) {
  store::database db(db_path);
  store::timeline_store timeline(db);
  store::sample_store samples(db);
  api::trace_document doc;
  doc.title = streamed["traceEvents"][0]["args"]["name"];
  doc.metadata = streamed["otherData"];
  store::timeline_query q;
  q.job_id = id;
  doc.spans = timeline.spans(q);
  std::int64_t from = INT64_MAX, to = INT64_MIN;
  for (const auto& s : doc.spans) {
    from = std::min(from, s.t_start_ns);
    to = std::max(to, s.t_end_ns);
  }
  for (const auto& c : samples.channels()) {
    if (c.unit != "W") continue;
    api::trace_counter tc{c.name, c.unit, {}};
    for (const auto& s : samples.query(id, c.id, from, to)) tc.points.emplace_back(s.t_ns, s.value);
    if (!tc.points.empty()) doc.counters.push_back(std::move(tc));
  }
  return json::parse(api::chrome_trace_json(doc));
}

}  // namespace

class command_jobs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sim_dir_ = std::make_unique<temp_dir>();
    // The program's account must reach its marker socket and write in its working directory.
    shared_ = std::make_unique<temp_dir>();
    ::chmod(shared_->path().c_str(), 01777);
    // Inherited by the daemon: the program must not see it.
    ::setenv("JETPERF_DAEMON_ONLY_SECRET", "s3cret", 1);
    // In MAXN, whose "max" is the CPU's top clock (2201.6 MHz), as the bounds below were set for.
    sim_board_in_mode(sim_dir_->path(), "orin-agx", 0);
    daemon_ = std::make_unique<daemon_process>(std::vector<std::string>{
        "--board", "sim:orin-agx", "--sim-dir", sim_dir_->path(), "--command-jobs", "true", "--command-user", "nobody",
        "--command-dirs", programs_dir(), "--runtime-dir", shared_->file("run")});
    ::unsetenv("JETPERF_DAEMON_ONLY_SECRET");
  }
  static void TearDownTestSuite() {
    daemon_.reset();
    shared_.reset();
    sim_dir_.reset();
  }
  static client_result cli(std::vector<std::string> args, int timeout_s = 120) {
    return run_client(with_daemon(*daemon_, std::move(args)), {}, timeout_s);
  }
  std::int64_t submit(http_client& http, const json& spec) {
    const auto r = http.request("POST", "/v1/jobs", json{{"kind", "command"}, {"spec", spec}}.dump(), bearer(daemon_->token()));
    EXPECT_EQ(r.status, 201) << r.body;
    return json_of(r).value("id", std::int64_t{0});
  }
  inline static std::unique_ptr<temp_dir> sim_dir_, shared_;
  inline static std::unique_ptr<daemon_process> daemon_;
};

TEST_F(command_jobs, busy_phases_draw_more_power_than_sleeping_ones_and_every_run_is_a_row) {
  const auto r = cli({"submit", "command", "--argv", program() + ",4,300,300", "--cpu-freq", "max", "--repeats", "2",
                      "--idle", "0.5", "--max-retries", "1", "--watch"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = submitted_id(r.out);
  http_client http(daemon_->port(), std::chrono::seconds(30));
  EXPECT_EQ(json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)))["spec"]["max_retries"], 1);
  const auto rows = rows_of(http, id);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_EQ(row["status"], "ok") << row.dump();
    // Each run's contention measured: the program's own spinning core is not another's.
    EXPECT_TRUE(row["others_cpu_share"].is_number()) << row.dump();
    EXPECT_LE(row["retries"].get<int>(), 1);
    EXPECT_EQ(row["exit_code"], 0);
    EXPECT_EQ(row["stdout_tail"], "done 4 cycles\n");
    EXPECT_EQ(row["stderr_tail"], "a line on stderr\n");
    EXPECT_EQ(row["marker_errors"], json::array()) << row.dump();
    EXPECT_EQ(row["marks"]["cycle"], 4);
    EXPECT_GT(row["wall_s"].get<double>(), 2.3);
    EXPECT_GT(row["energy_j"].get<double>(), 0);
    const auto& busy = row["phases"]["busy"];
    const auto& sleep = row["phases"]["sleep"];
    EXPECT_EQ(busy["count"], 4);
    EXPECT_EQ(sleep["count"], 4);
    EXPECT_NEAR(busy["time_s"].get<double>(), 1.2, 0.25);
    EXPECT_NEAR(sleep["time_s"].get<double>(), 1.2, 0.25);
    // One core spinning at the top clock against none: the simulated CPU rail's difference.
    const double cpu_busy = busy["rail_power_w"]["VDD_CPU_CV"].get<double>();
    const double cpu_sleep = sleep["rail_power_w"]["VDD_CPU_CV"].get<double>();
    EXPECT_GT(cpu_busy - cpu_sleep, 0.3) << busy.dump() << "\n" << sleep.dump();
    EXPECT_GT(busy["power_w"].get<double>() - sleep["power_w"].get<double>(), 0.3);
    EXPECT_GT(busy["dynamic_energy_j"].get<double>(), sleep["dynamic_energy_j"].get<double>() + 0.3);
    const auto flags = row["flags"];
    EXPECT_NE(std::find(flags.begin(), flags.end(), "speed_not_simulated"), flags.end()) << flags.dump();
  }
  const auto summary = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)))["summary"];
  ASSERT_EQ(summary["settings"].size(), 1u) << summary.dump();
  EXPECT_EQ(summary["settings"][0]["runs"], 2);
  EXPECT_EQ(summary["settings"][0]["phases"]["busy"]["runs"], 2);

  // The timeline of the job as a Chrome trace: each run, its 8 phases and 12 markers, the CPU
  // rail's power as a counter that reads higher inside the busy phases than inside the others.
  const auto traced = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/trace?counters=power");
  ASSERT_EQ(traced.status, 200) << traced.body.substr(0, 500);
  const auto trace = json_of(traced);
  // Streamed from the store in chunks, it is the document the whole-answer writer gives.
  EXPECT_EQ(traced.header("transfer-encoding"), "chunked");
  EXPECT_EQ(traced.header("content-length"), "");
  EXPECT_EQ(traced.header("content-type"), "application/json");
  EXPECT_EQ(trace, whole_trace(daemon_->db_path(), id, trace));
  EXPECT_EQ(trace["otherData"]["clock"], "CLOCK_MONOTONIC");
  EXPECT_EQ(trace["otherData"]["provenance"]["board"]["simulated"], true) << trace["otherData"].dump().substr(0, 400);
  std::map<std::string, int> spans;
  std::vector<std::pair<double, double>> busy_us;
  std::vector<std::pair<double, double>> cpu_w;  // (ts, W)
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X" || e["ph"] == "i") ++spans[e["cat"].get<std::string>() + ":" + e["name"].get<std::string>()];
    if (e["ph"] == "X" && e["name"] == "busy") busy_us.emplace_back(e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>());
    if (e["ph"] == "C" && e["name"] == "rail.VDD_CPU_CV (W)") cpu_w.emplace_back(e["ts"].get<double>(), e["args"]["value"].get<double>());
  }
  EXPECT_EQ(spans["runs:run"], 2);
  EXPECT_EQ(spans["phases:busy"], 8);
  EXPECT_EQ(spans["phases:sleep"], 8);
  EXPECT_EQ(spans["markers:busy"], 16);  // begin and end of each
  EXPECT_EQ(spans["markers:cycle"], 8);
  EXPECT_EQ(spans["points:point 0"], 1);
  ASSERT_GT(cpu_w.size(), 100u);
  double in_busy = 0, out_busy = 0;
  int n_in = 0, n_out = 0;
  for (const auto& [ts, w] : cpu_w) {
    const bool inside = std::any_of(busy_us.begin(), busy_us.end(), [&](const auto& b) { return ts > b.first + 50000 && ts < b.second; });
    (inside ? in_busy : out_busy) += w;
    (inside ? n_in : n_out)++;
  }
  ASSERT_GT(n_in, 10);
  EXPECT_GT(in_busy / n_in - out_busy / n_out, 0.3);
  const auto one = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/trace?point=1&counters=none");
  ASSERT_EQ(one.status, 200) << one.body;
  int one_runs = 0;
  const auto one_trace = json_of(one);
  for (const auto& e : one_trace["traceEvents"]) {
    if (e["ph"] == "C") ADD_FAILURE() << "counters=none gave a counter";
    if (e["ph"] != "X" && e["ph"] != "i") continue;
    EXPECT_EQ(e["args"]["point"], 1) << e.dump();
    one_runs += e["name"] == "run" ? 1 : 0;
  }
  EXPECT_EQ(one_runs, 1);
  // The client writes the same document: jetperf trace ID -o FILE.json.
  const auto file = shared_->file("job.trace.json");
  const auto exported = cli({"trace", std::to_string(id), "-o", file, "--counters", "power"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_EQ(json::parse(read_file(file)), trace);
  EXPECT_NE(::access((file + ".part").c_str(), F_OK), 0) << "the partial file stayed";
  EXPECT_NE(cli({"trace", "999999"}).exit_code, 0);
  // A refused export writes no file.
  const auto refused = cli({"trace", "999999", "-o", shared_->file("none.trace.json")});
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("999999"), std::string::npos) << refused.err;
  EXPECT_NE(::access(shared_->file("none.trace.json").c_str(), F_OK), 0);
  EXPECT_NE(::access(shared_->file("none.trace.json.part").c_str(), F_OK), 0);
  const auto bad = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/trace?counters=some");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(json_of(bad)["error"]["field"], "counters");
}

// The program also writes a Chrome trace of its phases (as torch.profiler would around
// jetperf_markers phases); attached after the job, the daemon aligns it by the phase markers and
// the busy op draws more power per second than the sleeping one.
TEST_F(command_jobs, an_attached_trace_is_aligned_by_markers_and_gives_energy_per_op) {
  const auto trace_file = shared_->file("phases.trace.json");
  const auto r = cli({"submit", "command", "--argv", program() + ",--trace," + trace_file + ",4,300,300", "--cpu-freq",
                      "max", "--idle", "0", "--watch"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = submitted_id(r.out);
  const auto attached = cli({"trace", "attach", std::to_string(id), trace_file, "--format", "json"});
  ASSERT_EQ(attached.exit_code, 0) << attached.out << attached.err;
  const auto answer = json::parse(attached.out);
  const auto& a = answer["alignment"];
  EXPECT_EQ(a["method"], "markers") << a.dump();
  EXPECT_EQ(a["matched"], 8) << a.dump();
  // The trace is stamped on the daemon's own clock: the offset is the markers' latency alone.
  EXPECT_LT(std::llabs(a["offset_ns"].get<std::int64_t>()), 2'000'000) << a.dump();
  EXPECT_LT(a["uncertainty_ns"].get<std::int64_t>(), 2'000'000) << a.dump();
  std::cerr << "alignment: " << a.dump() << "\n";
  std::map<std::string, json> ops;
  for (const auto& row : answer["energy"]["ops"]) ops[row["name"].get<std::string>()] = row;
  ASSERT_TRUE(ops.count("busy") && ops.count("sleep") && ops.count("spin")) << answer["energy"].dump();
  EXPECT_EQ(ops["busy"]["count"], 4);
  EXPECT_NEAR(ops["busy"]["time_s"].get<double>(), 1.2, 0.25);
  const double busy_w = ops["busy"]["power_w"].get<double>(), sleep_w = ops["sleep"]["power_w"].get<double>();
  EXPECT_GT(busy_w - sleep_w, 0.3) << ops["busy"].dump() << "\n" << ops["sleep"].dump();
  EXPECT_GT(ops["busy"]["uncertainty_j"].get<double>(), 0);
  EXPECT_LT(ops["busy"]["uncertainty_j"].get<double>(), ops["busy"]["energy_j"].get<double>());
  EXPECT_NEAR(ops["spin"]["power_w"].get<double>(), busy_w, 0.2);
  // Stored: listed, and served again as JSON and CSV.
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto listed = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/traces"));
  ASSERT_EQ(listed["traces"].size(), 1u) << listed.dump();
  EXPECT_EQ(listed["traces"][0]["alignment"]["method"], "markers");
  const auto csv = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/traces/1?format=csv");
  ASSERT_EQ(csv.status, 200);
  EXPECT_NE(csv.body.find("\nops,busy,4,"), std::string::npos) << csv.body;
  // Without the token the upload is refused before its body is read.
  http_client anonymous(daemon_->port(), std::chrono::seconds(30));
  const auto refused = anonymous.request("POST", "/v1/jobs/" + std::to_string(id) + "/traces", read_file(trace_file));
  EXPECT_EQ(refused.status, 401) << refused.body;
  const auto table = cli({"trace", "attach", std::to_string(id), trace_file});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("alignment: markers"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("coverage of the run: "), std::string::npos) << table.out;

  // It belongs to the run: verified; its top-level ops (the 4 busy and 4 sleep phases, 2.4 s)
  // cover most of the run, not all (the program's start and exit); self energies add up.
  EXPECT_EQ(a["verified"], true) << a.dump();
  const auto& c = answer["energy"]["coverage"];
  EXPECT_GT(c["time_share"].get<double>(), 0.5) << c.dump();
  EXPECT_LT(c["time_share"].get<double>(), 1.0) << c.dump();
  EXPECT_GT(c["energy_share"].get<double>(), 0.5) << c.dump();
  double self_sum = 0, top_sum = 0;
  for (const auto& row : answer["energy"]["ops"]) self_sum += row["self_energy_j"].get<double>();
  for (const auto& row : answer["energy"]["top_level"]) top_sum += row["energy_j"].get<double>();
  EXPECT_NEAR(self_sum, top_sum, 1e-6 * top_sum);
  EXPECT_NEAR(top_sum, c["covered_energy_j"].get<double>(), 0.02 * top_sum);

  // 66 ms later than it was recorded: not this run's. Refused naming why; --force keeps it,
  // unverified.
  const auto late = cli({"trace", "attach", std::to_string(id), trace_file, "--offset-ns", "66000000"});
  EXPECT_EQ(late.exit_code, 1) << late.out << late.err;
  EXPECT_NE(late.err.find("does not belong to job " + std::to_string(id)), std::string::npos) << late.err;
  EXPECT_NE(late.err.find("past the end of the job's run"), std::string::npos) << late.err;
  const auto forced = cli({"trace", "attach", std::to_string(id), trace_file, "--offset-ns", "66000000", "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(forced.out.find("UNVERIFIED (attached with --force)"), std::string::npos) << forced.out;
}

TEST_F(command_jobs, the_program_runs_as_the_configured_account_with_only_its_own_environment) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto id = submit(http, {{"argv", {program(), "--env"}}, {"env", {{"MY_SETTING", "42"}}}, {"idle_s", 0}});
  // The run lasts a few milliseconds: on a loaded host no power sample may fall inside it, and
  // the job then honestly fails for want of power (no_power). What it ran as is the point here.
  const auto state = wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(60));
  const auto row = rows_of(http, id).at(0);
  ASSERT_TRUE(state == "succeeded" || row["status"] == "no_power") << state << " " << row.dump();
  EXPECT_EQ(row["exit_code"], 0) << row.dump();
  const auto out = row["stdout_tail"].get<std::string>();
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  EXPECT_NE(out.find("uid=" + std::to_string(nobody->pw_uid) + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("MY_SETTING=42\n"), std::string::npos) << out;
  EXPECT_NE(out.find("JETPERF_MARKERS=" + shared_->file("run") + "/job-" + std::to_string(id) + ".markers\n"),
            std::string::npos) << out;
  EXPECT_NE(out.find("USER=nobody\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("JETPERF_DAEMON_ONLY_SECRET"), std::string::npos) << out;
}

// Four finished runs were lost to bytes that are not UTF-8 (the row could not be written as
// JSON): a tail cut inside a character, bytes that are no text, a marker attribute and a marker
// name holding such bytes. The run is kept, its text made valid.
TEST_F(command_jobs, a_run_whose_output_and_markers_are_not_utf8_is_kept) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto id = submit(http, {{"argv", {program(), "--bytes"}}, {"idle_s", 0}});
  // A run of a few milliseconds: on a loaded host (CI's) no power sample may fall inside it, and
  // the job then honestly fails for want of power (no_power). The run's text is the point here.
  const auto state = wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(60));
  const auto rows = rows_of(http, id);
  ASSERT_EQ(rows.size(), 1u);
  const auto& row = rows[0];
  ASSERT_TRUE((state == "succeeded" && row["status"] == "ok") || row["status"] == "no_power") << state << " " << row.dump();
  const auto out = row["stdout_tail"].get<std::string>();
  // The last 4096 bytes started inside an é: the tail starts at the next whole one.
  EXPECT_EQ(out.substr(0, 2), "\xC3\xA9") << out.substr(0, 8);
  const std::string r = "\xEF\xBF\xBD";
  const std::string end = " " + r + r + r + " end\n";
  ASSERT_GT(out.size(), end.size());
  EXPECT_EQ(out.substr(out.size() - end.size()), end);
  EXPECT_EQ(row["stderr_tail"], "err " + r + r + "\n");
  EXPECT_EQ(row["stdout_bytes"], 6000 + 9);
  EXPECT_EQ(row["marks"]["step"], 1) << row.dump();
  const auto errors = row["marker_errors"].dump();
  EXPECT_NE(errors.find("bad name 'bad" + r + "name'"), std::string::npos) << errors;
}

// An empty trace upload (Content-Length: 0) got no answer and was closed after 30 s: its body is
// complete with its header, and the route answers at once, naming what is wrong.
TEST_F(command_jobs, an_empty_trace_upload_is_answered_at_once) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto id = submit(http, {{"argv", {program(), "1", "10", "10"}}, {"idle_s", 0}});
  ASSERT_EQ(wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(60)), "succeeded");
  http_client quick(daemon_->port(), std::chrono::seconds(10));
  const auto r = quick.send_raw("POST /v1/jobs/" + std::to_string(id) + "/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                                daemon_->token() + "\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_FALSE(json_of(r)["error"]["message"].get<std::string>().empty()) << r.body;
}

TEST_F(command_jobs, what_a_program_leaves_running_is_killed_with_its_group) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto pid_file = shared_->file("orphan.pid");
  const auto id = submit(http, {{"argv", {program(), "--orphan", pid_file}}, {"idle_s", 0}});
  ASSERT_EQ(wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(60)), "succeeded");
  int child = 0;
  std::ifstream(pid_file) >> child;
  ASSERT_GT(child, 0);
  EXPECT_TRUE(eventually([&] { return ::kill(child, 0) != 0; }, std::chrono::seconds(5))) << "orphan " << child << " lives";
}

// Issue 35, 3: a child that calls setsid() leaves the program's process group, and outlived its
// job. The daemon is its subreaper: when the run ends it is killed and reaped (no zombie left).
TEST_F(command_jobs, a_child_that_left_the_process_group_is_killed_when_the_run_ends) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto pid_file = shared_->file("escaped.pid");
  const auto script = programs_dir() + "/escape.sh";
  write_file(script, "#!/bin/sh\nsetsid sh -c 'echo $$ > " + pid_file + "; exec sleep 300' &\nwhile [ ! -s " + pid_file +
                         " ]; do sleep 0.01; done\n");
  ::chmod(script.c_str(), 0755);
  const auto id = submit(http, {{"argv", {script}}, {"idle_s", 0}});
  ASSERT_EQ(wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(60)), "succeeded");
  int escaped = 0;
  std::ifstream(pid_file) >> escaped;
  ASSERT_GT(escaped, 0);
  // Gone by the time the job's state says it ended: kill(pid, 0) finds neither process nor zombie.
  EXPECT_NE(::kill(escaped, 0), 0) << "the setsid child " << escaped << " outlived its job";
}

TEST_F(command_jobs, a_timeout_fails_the_run_and_cancel_ends_the_program_at_once) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto timed = submit(http, {{"argv", {program(), "--hang", "timeout-case"}}, {"timeout_s", 0.5}, {"idle_s", 0}});
  EXPECT_EQ(wait_state(http, timed, {"succeeded", "partial", "failed"}, std::chrono::seconds(60)), "failed");
  const auto row = rows_of(http, timed).at(0);
  EXPECT_EQ(row["status"], "failed");
  EXPECT_EQ(row["timed_out"], true);
  EXPECT_EQ(processes_with("timeout-case"), 0);

  const auto hung = submit(http, {{"argv", {program(), "--hang", "cancel-case"}}, {"idle_s", 0}});
  ASSERT_TRUE(eventually([&] { return processes_with("cancel-case") == 1; }, std::chrono::seconds(30)));
  const auto del = http.request("DELETE", "/v1/jobs/" + std::to_string(hung), "", bearer(daemon_->token()));
  EXPECT_EQ(del.status, 200) << del.body;
  EXPECT_EQ(wait_state(http, hung, {"cancelled", "failed", "succeeded"}, std::chrono::seconds(30)), "cancelled");
  EXPECT_TRUE(eventually([&] { return processes_with("cancel-case") == 0; }, std::chrono::seconds(5)));
}

TEST_F(command_jobs, a_program_outside_the_allowed_directories_is_refused_naming_argv) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto r = http.request("POST", "/v1/jobs", json{{"kind", "command"}, {"spec", {{"argv", {"/bin/true"}}}}}.dump(),
                              bearer(daemon_->token()));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(json_of(r)["error"]["code"], "forbidden") << r.body;
  EXPECT_EQ(json_of(r)["error"]["field"], "spec.argv") << r.body;
  const auto c = cli({"submit", "command", "--argv", "/bin/true"});
  EXPECT_NE(c.exit_code, 0);
  EXPECT_NE((c.out + c.err).find("outside the allowed directories"), std::string::npos) << c.out << c.err;
}

// A run's limits from the client's flags, under the daemon's ceilings (command_max_processes,
// 4096 by default): above them the submission is refused naming the field and the key.
TEST_F(command_jobs, a_runs_limits_come_from_the_flags_and_stay_under_the_daemons_ceilings) {
  const auto over = cli({"submit", "command", "--argv", program() + ",1,10,10", "--max-processes", "5000"});
  EXPECT_NE(over.exit_code, 0);
  EXPECT_NE((over.out + over.err).find("spec.max_processes"), std::string::npos) << over.out << over.err;
  EXPECT_NE((over.out + over.err).find("command_max_processes"), std::string::npos) << over.out << over.err;
  const auto r = cli({"submit", "command", "--argv", program() + ",1,10,10", "--max-processes", "64",
                      "--max-memory-mb", "512", "--idle", "0", "--watch"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = submitted_id(r.out);
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto spec = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)))["spec"];
  EXPECT_EQ(spec["max_processes"], 64);
  EXPECT_EQ(spec["max_memory_mb"], 512);
  const auto rows = rows_of(http, id);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["status"], "ok") << rows[0].dump();
}

// A researcher's program in a private home: the daemon checks it as the program's account would
// see it, so the submission is refused with the reason before anything is queued or set.
TEST_F(command_jobs, a_program_its_account_cannot_reach_is_refused_at_submission_saying_why) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  temp_dir home;  // made 0700 by mkdtemp, owned by root: nobody cannot traverse it
  const auto copy = home.file("marked_phases");
  copy_file(program(), copy, 0755);
  struct stat st {};
  ASSERT_EQ(::stat(home.path().c_str(), &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0700u);
  // The board's settings (not its readings: the simulated EMC scales its rate on its own).
  const auto settings = [&] {
    const auto c = json_of(http.request("GET", "/v1/clocks"));
    return json{{"armed", c["armed"]}, {"power_mode", c["power_mode"]}, {"gpu_min_hz", c["gpu_min_hz"]},
                {"gpu_max_hz", c["gpu_max_hz"]}, {"cpu", c["state"]["cpu"]}, {"online", c["state"]["online_cores"]}};
  };
  const auto before = settings();
  EXPECT_EQ(before["armed"], false);
  const auto jobs = json_of(http.request("GET", "/v1/jobs"))["jobs"].size();
  const auto r = http.request("POST", "/v1/jobs", json{{"kind", "command"}, {"spec", {{"argv", {copy, "1"}}}}}.dump(),
                              bearer(daemon_->token()));
  ASSERT_EQ(r.status, 400) << r.body;
  const auto error = json_of(r)["error"];
  EXPECT_EQ(error["field"], "spec.argv") << r.body;
  EXPECT_EQ(error["code"], "forbidden") << r.body;
  EXPECT_EQ(error["message"], copy + ": not executable by nobody (" + home.path() + " is 0700, owner root)") << r.body;
  // The same through the client, and a working directory there too.
  const auto c = cli({"submit", "command", "--argv", program(), "--cwd", home.path()});
  EXPECT_NE(c.exit_code, 0);
  EXPECT_NE((c.out + c.err).find(home.path() + ": cannot be entered by nobody (mode 0700, owner root)"), std::string::npos)
      << c.out << c.err;
  EXPECT_EQ(settings(), before);
  EXPECT_EQ(json_of(http.request("GET", "/v1/jobs"))["jobs"].size(), jobs);
}

class command_jobs_off : public sim_orin_suite {};

TEST_F(command_jobs_off, a_daemon_without_command_jobs_refuses_them_naming_the_config_keys) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto r = http.request("POST", "/v1/jobs", json{{"kind", "command"}, {"spec", {{"argv", {"/bin/true"}}}}}.dump(),
                              bearer(daemon_->token()));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(json_of(r)["error"]["code"], "forbidden") << r.body;
  EXPECT_EQ(json_of(r)["error"]["field"], "kind");
  EXPECT_NE(r.body.find("command_jobs = true"), std::string::npos) << r.body;
}

TEST_F(command_jobs, the_daemons_shutdown_ends_a_running_program_with_its_group) {
  temp_dir sim;
  daemon_process own({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--command-jobs", "true", "--command-user",
                      "nobody", "--command-dirs", programs_dir(), "--runtime-dir", shared_->file("run2")});
  http_client http(own.port(), std::chrono::seconds(30));
  const auto r = http.request("POST", "/v1/jobs",
                              json{{"kind", "command"}, {"spec", {{"argv", {program(), "--hang", "shutdown-case"}}, {"idle_s", 0}}}}.dump(),
                              bearer(own.token()));
  ASSERT_EQ(r.status, 201) << r.body;
  ASSERT_TRUE(eventually([&] { return processes_with("shutdown-case") == 1; }, std::chrono::seconds(30)));
  EXPECT_EQ(own.stop(), 0);
  EXPECT_EQ(processes_with("shutdown-case"), 0);
}

// Issue 34, 2: a run beside a CPU hog (threads of this test process, another process to the
// daemon, on every core) is contended: run again, then kept with the flag.
TEST_F(command_jobs, a_run_beside_a_cpu_hog_is_run_again_and_kept_flagged_contended) {
  http_client http(daemon_->port(), std::chrono::seconds(30));
  std::atomic<bool> stop{false};
  std::vector<std::thread> hogs;
  for (unsigned i = 0; i < std::max(1u, std::thread::hardware_concurrency()); ++i)
    hogs.emplace_back([&stop] {
      volatile std::uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  const auto id = submit(http, {{"argv", {program(), "2", "100", "100"}}, {"idle_s", 0}, {"max_retries", 1}});
  const auto state = wait_state(http, id, {"succeeded", "partial", "failed", "cancelled"}, std::chrono::seconds(120));
  stop = true;
  for (auto& t : hogs) t.join();
  EXPECT_EQ(state, "succeeded");
  const auto rows = rows_of(http, id);
  ASSERT_EQ(rows.size(), 1u);
  const auto& row = rows[0];
  EXPECT_GT(row["others_cpu_share"].get<double>(), 0.3) << row.dump();
  EXPECT_EQ(row["retries"], 1) << row.dump();
  const auto flags = row["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "contended"), flags.end()) << flags.dump();
}
