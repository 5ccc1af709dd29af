// A real Prometheus (Debian's package, installed by deploy/install-deps.sh) scrapes two daemons on
// loopback (sim:orin-agx and sim:xavier-nx) every second, with the board_name target label as in
// deploy/prometheus/prometheus.yml. Through Prometheus's HTTP API: rate() of each rail's energy
// counter over 10 s equals the daemon's own mean rail power over that window within 2%, a job's
// energy counter equals the energy its results report within 2%, and jetperf_build_info's board
// is the target's board_name. Prometheus is started with an argument vector (posix_spawn); a
// machine without it fails this test, naming the package.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include <support/eventually.hpp>
#include <support/finished_job.hpp>
#include <support/test_paths.hpp>

#include "backbone_helpers.hpp"

extern char** environ;

namespace jetperf::test {
namespace {

// The prometheus program on PATH (or Debian's path), "" when there is none.
// A program of Debian's prometheus package (prometheus, promtool) on PATH; "" when absent.
std::string find_program(const std::string& name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  path += ":/usr/bin:/usr/local/bin";
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

std::string url_encode(const std::string& s) {
  std::string out;
  char buf[4];
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

class prometheus_process {
 public:
  prometheus_process(const std::string& program, const std::string& config, const std::string& data, int port,
                     const std::string& log) {
    std::vector<std::string> args = {program,
                                     "--config.file=" + config,
                                     "--storage.tsdb.path=" + data,
                                     "--web.listen-address=127.0.0.1:" + std::to_string(port),
                                     "--log.level=warn"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = ::posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("posix_spawn " + program + ": " + std::strerror(rc));
  }
  ~prometheus_process() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  prometheus_process(const prometheus_process&) = delete;
  prometheus_process& operator=(const prometheus_process&) = delete;

 private:
  pid_t pid_ = -1;
};

struct board {
  std::string name;
  std::unique_ptr<temp_dir> sim;
  std::unique_ptr<daemon_process> daemon;
};

// One instant query: the result vector (each {metric, value: [t, "v"]}).
nlohmann::json query(http_client& prom, const std::string& expr, double at_s) {
  char t[32];
  std::snprintf(t, sizeof t, "%.3f", at_s);
  const auto r = prom.request("GET", "/api/v1/query?query=" + url_encode(expr) + "&time=" + t);
  EXPECT_EQ(r.status, 200) << r.body;
  const auto j = json_of(r);
  EXPECT_EQ(j.value("status", std::string()), "success") << r.body;
  return j.contains("data") ? j["data"].value("result", nlohmann::json::array()) : nlohmann::json::array();
}

double value_of(const nlohmann::json& series) { return std::stod(series["value"][1].get<std::string>()); }

TEST(prometheus_sim, the_deploy_scrape_config_and_recording_rules_pass_promtool) {
  // deploy/prometheus as installed beside each other in /etc/prometheus: the config names the
  // rules file relative to itself, so `check config` checks both.
  const auto promtool = find_program("promtool");
  ASSERT_FALSE(promtool.empty()) << "no promtool on PATH: install Debian's `prometheus` package";
  const auto dir = source_dir() + "/deploy/prometheus";
  const auto config = run_program({promtool, "check", "config", dir + "/prometheus.yml"});
  EXPECT_EQ(config.exit_code, 0) << config.out << config.err;
  EXPECT_NE((config.out + config.err).find("SUCCESS: 1 rule files found"), std::string::npos) << config.out << config.err;
  const auto rules = run_program({promtool, "check", "rules", dir + "/jetperf.rules.yml"});
  EXPECT_EQ(rules.exit_code, 0) << rules.out << rules.err;
  EXPECT_NE((rules.out + rules.err).find("SUCCESS"), std::string::npos) << rules.out << rules.err;
}

// The daemon's own /metrics pass promtool's lint (a gauge carried a summary's `quantile` label).
TEST(prometheus_sim, the_daemons_metrics_pass_promtool_check_metrics) {
  const auto promtool = find_program("promtool");
  ASSERT_FALSE(promtool.empty()) << "no promtool on PATH: install Debian's `prometheus` package";
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(d.port(), std::chrono::seconds(30));
  // A finished job first: its energy series and the full-rate samples' age appear only then (the
  // age was once given in days, which promtool refuses).
  run_job(d, http, "idle", {{"duration_s", 0.2}, {"repeats", 1}});
  std::string body;
  ASSERT_TRUE(eventually(
      [&] {
        body = http.request("GET", "/metrics").body;
        return body.find("\njetperf_full_rate_age_seconds ") != std::string::npos;
      },
      std::chrono::seconds(10)))
      << body;
  const auto metrics = http.request("GET", "/metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.body;
  ASSERT_NE(metrics.body.find("jetperf_sampler_jitter_seconds{"), std::string::npos) << metrics.body;
  const auto file = sim.file("metrics.txt");
  write_file(file, metrics.body);
  const auto lint = run_program({promtool, "check", "metrics"}, {}, 60, file);
  EXPECT_EQ(lint.exit_code, 0) << lint.out << lint.err;
  EXPECT_EQ(lint.out + lint.err, "") << "promtool's findings";
}

TEST(prometheus_sim, rates_and_job_energy_through_a_real_prometheus) {
  const auto program = find_program("prometheus");
  ASSERT_FALSE(program.empty()) << "no prometheus program on PATH: install Debian's `prometheus` package "
                                   "(deploy/install-deps.sh installs it for the tests)";
  std::vector<board> boards;
  for (const auto& [name, profile] : {std::pair<std::string, std::string>{"orin-1", "sim:orin-agx"},
                                      std::pair<std::string, std::string>{"nx-1", "sim:xavier-nx"}}) {
    board b;
    b.name = name;
    b.sim = std::make_unique<temp_dir>();
    b.daemon = std::make_unique<daemon_process>(
        std::vector<std::string>{"--board", profile, "--sim-dir", b.sim->path(), "--board-name", name});
    boards.push_back(std::move(b));
  }
  temp_dir dir;
  std::string config =
      "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
      "scrape_configs:\n  - job_name: jetperf\n    scrape_interval: 1s\n    scrape_timeout: 1s\n"
      "    static_configs:\n";
  for (const auto& b : boards)
    config += "      - targets: ['" + b.daemon->address() + "']\n        labels: {board_name: " + b.name + "}\n";
  config += "    relabel_configs:\n      - source_labels: [board_name]\n        target_label: instance\n";
  write_file(dir.file("prometheus.yml"), config);
  const int port = free_loopback_port();
  prometheus_process prometheus(program, dir.file("prometheus.yml"), dir.file("data"), port, dir.file("prometheus.log"));
  http_client prom(port, std::chrono::seconds(5));
  bool ready = false;
  for (int i = 0; i < 150 && !ready; ++i) {
    try {
      ready = prom.request("GET", "/-/ready").status == 200;
    } catch (const std::exception&) {
      prom.close();
    }
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(ready) << read_file(dir.file("prometheus.log"));
  // Both targets scraped before the jobs start, so the whole window has scrapes.
  bool up = false;
  for (int i = 0; i < 100 && !up; ++i) {
    const auto now_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const auto series = query(prom, "up == 1", now_s);
    up = series.size() == boards.size();
    if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(up) << prom.request("GET", "/api/v1/targets").body;

  // An idle job on each board: a steady window with room for a 10 s rate range.
  std::vector<std::int64_t> ids;
  for (auto& b : boards) {
    http_client http(b.daemon->port());
    ids.push_back(submit_idle(http, b.daemon->token(), 20.0, 1, {"prom"}));
  }
  for (std::size_t i = 0; i < boards.size(); ++i) {
    http_client http(boards[i].daemon->port());
    ASSERT_EQ(wait_state(http, ids[i], {"succeeded", "failed", "partial"}, std::chrono::seconds(60)), "succeeded");
  }
  // Two more scrapes: the finished job's final counter is in Prometheus.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));

  for (std::size_t i = 0; i < boards.size(); ++i) {
    SCOPED_TRACE(boards[i].name);
    http_client http(boards[i].daemon->port());
    const auto job_id = std::to_string(ids[i]);
    const auto results = json_of(http.request("GET", "/v1/jobs/" + job_id + "/results"));
    ASSERT_EQ(results["rows"].size(), 1u) << results.dump();
    const auto& row = results["rows"][0];
    // The daemon's monotonic clock against the wall clock Prometheus stamps its scrapes with.
    const auto time = json_of(http.request("GET", "/v1/time"));
    const double wall_minus_mono_s =
        static_cast<double>(time["wall_ns"].get<std::int64_t>() - time["monotonic_ns"].get<std::int64_t>()) / 1e9;
    const auto window_start_ns = row["window_start_ns"].get<std::int64_t>();
    const auto window_end_ns = row["window_end_ns"].get<std::int64_t>();
    const double start_s = static_cast<double>(window_start_ns) / 1e9 + wall_minus_mono_s;
    const double end_s = static_cast<double>(window_end_ns) / 1e9 + wall_minus_mono_s;
    const std::string selector = "jetperf_rail_energy_joules_total{board_name=\"" + boards[i].name + "\"}";
    // The evaluation time: just after a scrape, with the window's first scrape close enough to
    // its start (within 1.1 average intervals) that rate() extrapolates to the start rather than
    // stopping half an interval short. The counters carry the time they are exact at, so scrapes
    // the machine delayed still give exact slopes; only the edges need care.
    const auto scrapes = query(prom, selector + "[30s]", end_s);
    ASSERT_FALSE(scrapes.empty());
    std::vector<double> times;
    for (const auto& v : scrapes[0]["values"]) times.push_back(v[0].get<double>());
    double at_s = 0;
    for (std::size_t k = 0; k < times.size() && at_s == 0; ++k) {
      const double t = times[k] + 0.05;
      if (t - 10 < start_s || t > end_s) continue;
      std::size_t first = k;
      while (first > 0 && times[first - 1] > t - 10) --first;
      if (first == k) continue;
      const double average = (times[k] - times[first]) / static_cast<double>(k - first);
      if (times[first] - (t - 10) < 1.1 * average) at_s = t;
    }
    ASSERT_GT(at_s, 0) << "no 10 s range in the job whose first scrape lies near its start: " << scrapes[0].dump();
    const auto mono_ns = [&](double wall_s) { return static_cast<std::int64_t>((wall_s - wall_minus_mono_s) * 1e9); };

    // rate() of every rail's counter against the daemon's mean of that rail over the same window.
    const auto rates = query(prom, "rate(" + selector + "[10s])", at_s);
    ASSERT_GE(rates.size(), 3u) << rates.dump() << " at " << at_s;
    for (const auto& series : rates) {
      const auto rail = series["metric"]["rail"].get<std::string>();
      const auto buckets = json_of(http.request(
          "GET", "/v1/jobs/" + job_id + "/samples?channel=rail." + rail + "&from=" + std::to_string(mono_ns(at_s - 10)) +
                     "&to=" + std::to_string(mono_ns(at_s)) + "&bucket_ms=60000"));
      double sum = 0;
      std::int64_t count = 0;
      for (const auto& b : buckets["buckets"]) {
        sum += b["mean"].get<double>() * b["count"].get<double>();
        count += b["count"].get<std::int64_t>();
      }
      // The simulated INA3221s update every few tens of ms: hundreds of readings in the window.
      ASSERT_GT(count, 100) << rail << buckets.dump();
      const double mean_w = sum / static_cast<double>(count);
      EXPECT_NEAR(value_of(series), mean_w, 0.02 * mean_w) << rail << " at " << at_s;
    }

    // The job's energy counter against the energy of its results (mean power x window).
    // Its final value: a loaded machine delays scrapes, so the last one before the job ended may
    // hold part of it; the counter is final once two scrapes a while apart agree.
    const std::string job_selector =
        "jetperf_job_energy_joules_total{job_id=\"" + job_id + "\",board_name=\"" + boards[i].name + "\"}";
    const auto now_s = [] { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); };
    auto job_energy = query(prom, job_selector, now_s());
    for (int polls = 0; polls < 20; ++polls) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      const auto again = query(prom, job_selector, now_s());
      const bool settled = !again.empty() && !job_energy.empty() && value_of(again[0]) == value_of(job_energy[0]);
      job_energy = again;
      if (settled) break;
    }
    ASSERT_EQ(job_energy.size(), 1u) << job_energy.dump();
    EXPECT_EQ(job_energy[0]["metric"]["kind"], "idle");
    const double reported_j = row["power_w"].get<double>() * row["duration_s"].get<double>();
    EXPECT_NEAR(value_of(job_energy[0]), reported_j, 0.02 * reported_j);
    const auto progress = query(prom, "jetperf_job_progress_ratio{job_id=\"" + job_id + "\",board_name=\"" +
                                          boards[i].name + "\"}",
                                static_cast<double>(time["wall_ns"].get<std::int64_t>()) / 1e9);
    ASSERT_EQ(progress.size(), 1u);
    EXPECT_EQ(value_of(progress[0]), 1.0);

    const auto build = query(prom, "jetperf_build_info{board_name=\"" + boards[i].name + "\"}",
                             static_cast<double>(time["wall_ns"].get<std::int64_t>()) / 1e9);
    ASSERT_EQ(build.size(), 1u) << build.dump();
    EXPECT_EQ(build[0]["metric"]["board"], boards[i].name);
    EXPECT_EQ(build[0]["metric"]["instance"], boards[i].name);
    EXPECT_EQ(build[0]["metric"]["simulated"], "true");

    // Throttle state: the GPU and every online CPU core against their floors; a simulated board
    // never reads below them.
    const auto throttled = query(prom, "jetperf_clock_throttled{board_name=\"" + boards[i].name + "\"}",
                                 static_cast<double>(time["wall_ns"].get<std::int64_t>()) / 1e9);
    std::set<std::string> domains;
    for (const auto& series : throttled) {
      domains.insert(series["metric"]["domain"].get<std::string>());
      EXPECT_EQ(value_of(series), 0.0) << series.dump();
    }
    EXPECT_TRUE(domains.count("gpu")) << throttled.dump();
    EXPECT_TRUE(domains.count("cpu0")) << throttled.dump();
  }
}

}  // namespace
}  // namespace jetperf::test
