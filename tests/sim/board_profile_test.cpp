// Every simulated board through the real jetperfd and raw HTTP: detection, power modes, clock
// locks and their restore, telemetry, /metrics, crash-safe restore after SIGKILL, bad input.
// The sim tree's files are the board: each change is checked where a real board would show it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/sim/board_profile.hpp>
#include <jetperf/telemetry/rail_role.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/snapshot_store.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

using file_map = std::map<std::string, std::string>;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Files the kernel (here: the rail simulator) rewrites all the time; they are measurements, not
// settings, so a restore cannot and need not put them back.
bool live_file(const std::string& board_path, const sim::board_profile& p) {
  const std::string name = fs::path(board_path).filename().string();
  static const std::set<std::string> live = {"cur_freq",     "target_freq", "scaling_cur_freq", "cpuinfo_cur_freq",
                                             "is_railgated", "gpu_powered_on", "mc_all",       "temp",
                                             "rpm_measured", "load"};
  if (live.count(name)) return true;
  // The simulator writes files atomically through NAME.tmp.PID (left behind when it is killed).
  if (name.find(".tmp.") != std::string::npos) return true;
  if (name.size() > 6 && name.compare(name.size() - 6, 6, "_input") == 0) return true;
  if (board_path == p.emc_rate_path || board_path == "/proc/stat") return true;
  for (const auto& clk : p.gpu_clock_debugfs)
    if (board_path == clk) return true;
  return false;
}

// Every regular settings file of the board tree (symlinks not followed), by board path.
file_map settings_files(const std::string& root, const sim::board_profile& p) {
  file_map files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_symlink() || !it->is_regular_file()) continue;
    const std::string board_path = it->path().string().substr(root.size());
    if (live_file(board_path, p)) continue;
    files[board_path] = slurp(it->path().string());
  }
  return files;
}

// The policy of a cluster whose first core is offline in `before` (policyN is named after its
// first core). Its files hold whatever the last mode wrote and take effect only when nvpmodel
// brings the cores back, which writes them again; they are not settings in effect, so a restore
// that takes the cores offline again leaves them as they are (the platform snapshots them only
// while online).
bool offline_policy_file(const std::string& path, const file_map& before) {
  static const std::string prefix = "/sys/devices/system/cpu/cpufreq/policy";
  if (path.rfind(prefix, 0) != 0) return false;
  const auto slash = path.find('/', prefix.size());
  const std::string core = path.substr(prefix.size(), slash - prefix.size());
  auto it = before.find("/sys/devices/system/cpu/cpu" + core + "/online");
  return it != before.end() && it->second == "0";
}

// Paths whose content differs between two snapshots (added or removed ones too).
std::vector<std::string> differences(const file_map& a, const file_map& b) {
  std::vector<std::string> out;
  for (const auto& [path, value] : a) {
    if (offline_policy_file(path, a)) continue;
    auto it = b.find(path);
    if (it == b.end() || it->second != value) out.push_back(path + " (" + value + " -> " + (it == b.end() ? "gone" : it->second) + ")");
  }
  for (const auto& [path, value] : b)
    if (!a.count(path)) out.push_back(path + " (new: " + value + ")");
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

std::string family_of(const sim::board_profile& p) { return "t" + p.soc.substr(std::string("tegra").size()); }

// A mode to switch to live: same GPU power gating as the default (a change there needs a
// reboot), and different online cores or GPU cap, so the switch shows in the files.
// nullptr when every other mode needs a reboot (AGX Orin: each changes TPC_PG_MASK).
const sim::mode_spec* live_mode(const sim::board_profile& p) {
  const auto* def = p.find_mode(p.default_mode);
  const sim::mode_spec* fallback = nullptr;
  for (const auto& m : p.modes) {
    if (m.id == p.default_mode || m.tpc_pg_mask != def->tpc_pg_mask || m.fbp_pg_mask != def->fbp_pg_mask) continue;
    if (m.online != def->online || m.gpu_max_hz != def->gpu_max_hz) return &m;
    if (!fallback) fallback = &m;
  }
  return fallback;
}

// Any mode other than the default.
const sim::mode_spec& other_mode(const sim::board_profile& p) {
  for (const auto& m : p.modes)
    if (m.id != p.default_mode) return m;
  return p.modes.front();
}

// The first frame of GET /v1/telemetry/stream, read from a raw socket (the stream never ends).
std::string first_sse_frame(int port, std::chrono::milliseconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {};
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string got;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string req = "GET /v1/telemetry/stream?interval_ms=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    if (::send(fd, req.data(), req.size(), 0) == static_cast<ssize_t>(req.size())) {
      const auto deadline = std::chrono::steady_clock::now() + timeout;
      char buf[4096];
      while (std::chrono::steady_clock::now() < deadline) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) continue;
        got.append(buf, static_cast<std::size_t>(n));
        const auto data = got.find("\ndata: ");
        if (data != std::string::npos && got.find('\n', data + 7) != std::string::npos) break;
      }
    }
  }
  ::close(fd);
  const auto data = got.find("\ndata: ");
  if (data == std::string::npos) return {};
  return got.substr(data + 7, got.find('\n', data + 7) - data - 7);
}

void write_executable(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), 0755);
}

class sim_board_api : public ::testing::TestWithParam<std::string> {
 protected:
  const sim::board_profile& profile() const { return sim::find_profile(GetParam()); }
  std::string root() const { return sim_dir_.path() + "/" + GetParam() + "/root"; }
  std::string host(const std::string& board_path) const { return root() + board_path; }
  std::vector<std::string> args() const { return {"--board", "sim:" + GetParam(), "--sim-dir", sim_dir_.path()}; }

  temp_dir sim_dir_;
};

TEST_P(sim_board_api, detects_sets_modes_locks_clocks_and_restores) {
  const auto& p = profile();
  daemon_process d(args());
  http_client http(d.port());

  // Detection: the simulated board is reported as what it imitates, and marked simulated.
  const auto board = http.request("GET", "/v1/board");
  ASSERT_EQ(board.status, 200) << board.body;
  const auto b = json_of(board);
  EXPECT_EQ(b.value("family", ""), family_of(p));
  EXPECT_EQ(b.value("soc", ""), p.soc);
  EXPECT_EQ(b.value("board", ""), "sim:" + p.name);
  EXPECT_EQ(b.value("simulated", false), true);
  // Rails: every non-NC channel of the profile, each with the role its name gives.
  std::size_t listed = 0;
  for (const auto& chip : p.ina)
    for (const auto& ch : chip.channels) listed += ch.kind == sim::rail_kind::nc ? 0 : 1;
  listed += p.ina238.size();  // Thor's VIN
  ASSERT_TRUE(b.at("rails").is_array()) << board.body;
  EXPECT_EQ(b.at("rails").size(), listed) << board.body;
  for (const auto& r : b.at("rails"))
    EXPECT_EQ(r.value("role", ""), telemetry::rail_role(r.value("name", ""))) << r.dump();
  // 3D scaling: nvgpu's switch where the board has it, else the devfreq governor (JetPack 7).
  EXPECT_EQ(b.at("gpu").value("scaling", ""), p.enable_3d_scaling ? "enable_3d_scaling" : "devfreq_governor");
  const auto health = json_of(http.request("GET", "/v1/health"));
  EXPECT_EQ(health.value("board", ""), "sim:" + p.name);
  EXPECT_EQ(health.value("simulated", false), true);

  // Mode list: exactly the profile's modes.
  const auto pm = json_of(http.request("GET", "/v1/power-mode"));
  EXPECT_EQ(pm.value("id", -1), p.default_mode) << pm.dump();
  std::set<int> ids;
  for (const auto& m : pm.at("modes")) ids.insert(m.at("id").get<int>());
  std::set<int> expected;
  for (const auto& m : p.modes) expected.insert(m.id);
  EXPECT_EQ(ids, expected);

  const file_map before = settings_files(root(), p);
  ASSERT_GT(before.size(), 20u);

  // Set a mode: cores go online/offline and the GPU cap follows the mode. Where every other mode
  // changes GPU power gating, switching needs force and a reboot: 409 without force.
  const auto* live = live_mode(p);
  if (!live) {
    const auto r = http.request("PUT", "/v1/power-mode", json{{"id", other_mode(p).id}}.dump(), bearer(d.token()));
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(join(differences(before, settings_files(root(), p))), "");
  }
  const auto& m = live ? *live : *p.find_mode(p.default_mode);
  auto r = http.request("PUT", "/v1/power-mode", json{{"id", m.id}}.dump(), bearer(d.token()));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json_of(r).value("id", -1), m.id);
  for (int core = 1; core < p.core_count(); ++core) {
    const bool on = std::find(m.online.begin(), m.online.end(), core) != m.online.end();
    EXPECT_EQ(slurp(host("/sys/devices/system/cpu/cpu" + std::to_string(core) + "/online")), on ? "1" : "0")
        << "core " << core << " in mode " << m.name;
  }
  const long long gpu_cap = m.gpu_max_hz < 0 ? p.gpu_freqs_hz.back() : m.gpu_max_hz;
  const long long gpu_max = std::stoll(slurp(host(p.gpu_devfreq_dir + "/max_freq")));
  EXPECT_LE(gpu_max, gpu_cap) << "mode " << m.name;
  EXPECT_NE(std::find(p.gpu_freqs_hz.begin(), p.gpu_freqs_hz.end(), gpu_max), p.gpu_freqs_hz.end()) << gpu_max;
  EXPECT_GT(gpu_max, gpu_cap - (gpu_cap / 5)) << "mode " << m.name;

  // Lock the GPU clock at an offered step: min == max == that step.
  const auto clocks = json_of(http.request("GET", "/v1/clocks"));
  const auto gpu_steps = clocks.at("available").at("gpu_hz").get<std::vector<long long>>();
  ASSERT_FALSE(gpu_steps.empty());
  // The power sensors' averaging: the hwmon chips (r35) have every INA3221 count and say their
  // own; the r32 IIO driver has none to set.
  const auto& counts = clocks.at("available").at("sensor_samples");
  if (p.hwmon_rails) {
    EXPECT_EQ(counts, json({1, 4, 16, 64, 128, 256, 512, 1024}));
    ASSERT_EQ(clocks.at("sensors").size(), p.ina.size()) << clocks.dump();
    EXPECT_EQ(clocks["sensors"][0]["samples"], 16);
    EXPECT_EQ(clocks["sensors"][0]["update_interval_ms"], 20);
  } else {
    EXPECT_TRUE(counts.empty()) << clocks.dump();
    EXPECT_TRUE(clocks.at("sensors").empty()) << clocks.dump();
  }
  const long long lock = gpu_steps.front();
  r = http.request("PUT", "/v1/clocks", json{{"gpu", lock}}.dump(), bearer(d.token()));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(std::stoll(slurp(host(p.gpu_devfreq_dir + "/min_freq"))), lock);
  EXPECT_EQ(std::stoll(slurp(host(p.gpu_devfreq_dir + "/max_freq"))), lock);
  EXPECT_FALSE(differences(before, settings_files(root(), p)).empty());

  // Restore: every settings file reads back as before the first change.
  r = http.request("POST", "/v1/clocks/restore", "", bearer(d.token()));
  ASSERT_EQ(r.status, 200) << r.body;
  std::this_thread::sleep_for(100ms);  // the simulator's derived files (cpu/online) follow within a step
  EXPECT_EQ(join(differences(before, settings_files(root(), p))), "");
  EXPECT_EQ(json_of(http.request("GET", "/v1/power-mode")).value("id", -1), p.default_mode);

  // Telemetry: stream frames and /metrics carry the rails.
  const auto frame = json::parse(first_sse_frame(d.port(), 5s), nullptr, false);
  ASSERT_TRUE(frame.is_object()) << "no telemetry frame";
  int rails = 0;
  for (const auto& c : frame.at("channels"))
    if (c.value("name", "").rfind("rail.", 0) == 0 && c.at("value").is_number()) ++rails;
  EXPECT_GE(rails, 1) << frame.dump();
  const auto metrics = http.request("GET", "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("jetperf_rail_power_watts{rail=\""), std::string::npos) << metrics.body;
  EXPECT_NE(metrics.body.find("\",role=\""), std::string::npos) << metrics.body;
  EXPECT_NE(metrics.body.find("jetperf_power_total_watts "), std::string::npos);
}

TEST_P(sim_board_api, restores_the_board_after_a_crash) {
  const auto& p = profile();
  daemon_process d(args());
  http_client http(d.port());
  const file_map before = settings_files(root(), p);

  const auto* live = live_mode(p);
  const int mode = live ? live->id : p.default_mode;
  auto r = http.request("PUT", "/v1/power-mode", json{{"id", mode}}.dump(), bearer(d.token()));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto clocks = json_of(http.request("GET", "/v1/clocks"));
  const auto cpu_steps = clocks.at("available").at("cpu_khz").get<std::vector<long long>>();
  const auto gpu_steps = clocks.at("available").at("gpu_hz").get<std::vector<long long>>();
  ASSERT_FALSE(cpu_steps.empty());
  r = http.request("PUT", "/v1/clocks", json{{"gpu", gpu_steps.front()}, {"cpu", cpu_steps.front()}}.dump(),
                   bearer(d.token()));
  ASSERT_EQ(r.status, 200) << r.body;

  d.kill();
  const auto changed = differences(before, settings_files(root(), p));
  ASSERT_FALSE(changed.empty()) << "the changes must outlive the killed daemon";
  {
    store::database db(d.db_path());
    EXPECT_TRUE(store::snapshot_store(db).oldest_open().has_value());
  }

  d.start();  // restores at start-up, before serving
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(join(differences(before, settings_files(root(), p))), "") << d.log();
  EXPECT_NE(d.log().find("restored the settings"), std::string::npos) << d.log();
  {
    store::database db(d.db_path());
    EXPECT_FALSE(store::snapshot_store(db).oldest_open().has_value());
  }
  http_client again(d.port());
  EXPECT_EQ(json_of(again.request("GET", "/v1/power-mode")).value("id", -1), p.default_mode);
}

// /metrics value of a sample line `name ` (first match); NaN when absent.
double metric(const std::string& body, const std::string& line_start) {
  const auto at = body.find("\n" + line_start);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(body.c_str() + at + 1 + line_start.size(), nullptr);
}

// The rails the API reports follow the simulator's power model: never zero on a powered board,
// and the readings move (INA3221 noise) rather than freezing at the first value read.
TEST_P(sim_board_api, rail_readings_follow_the_board) {
  daemon_process d(args());
  http_client http(d.port());
  std::set<double> totals;
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(300ms);
    const double w = metric(http.request("GET", "/metrics").body, "jetperf_power_total_watts ");
    EXPECT_GT(w, 0.5) << "module total power in watts";
    totals.insert(w);
  }
  EXPECT_GT(totals.size(), 1u) << "the total power never changed: the sensors read stale files";
}

// The same through a job: a gemm sweep point sets the mode and locks the CPU clock, then the
// daemon dies mid-measurement.
TEST_P(sim_board_api, restores_a_killed_jobs_settings_at_start) {
  const auto& p = profile();
  daemon_process d(args());
  http_client http(d.port());
  const file_map before = settings_files(root(), p);
  const auto* live = live_mode(p);
  const int mode = live ? live->id : p.default_mode;
  const auto cpu_steps =
      json_of(http.request("GET", "/v1/clocks")).at("available").at("cpu_khz").get<std::vector<long long>>();
  ASSERT_GE(cpu_steps.size(), 2u);
  const long long step = cpu_steps[1];
  const json job{{"kind", "gemm"},
                 {"spec", {{"device", "cpu"}, {"dtypes", {"float"}}, {"sizes", {32}}, {"power_modes", {mode}},
                           {"cpu_freqs", {step}}, {"duration_s", 30}}}};
  const auto r = http.request("POST", "/v1/jobs", job.dump(), bearer(d.token()));
  ASSERT_EQ(r.status, 201) << r.body;
  const auto id = json_of(r).value("id", std::int64_t{0});
  ASSERT_EQ(wait_state(http, id, {"running"}), "running");
  const std::string cpu0_max = host("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq");
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (slurp(cpu0_max) != std::to_string(step) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(slurp(cpu0_max), std::to_string(step)) << "the job never locked the CPU clock\n" << d.log();

  d.kill();
  ASSERT_FALSE(differences(before, settings_files(root(), p)).empty());
  d.start();
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(join(differences(before, settings_files(root(), p))), "") << d.log();
  store::database db(d.db_path());
  EXPECT_FALSE(store::snapshot_store(db).oldest_open().has_value());
  http_client again(d.port());
  EXPECT_EQ(state_of(again, id), "interrupted");
}

TEST_P(sim_board_api, rejects_bad_input_and_busy_or_failing_changes) {
  const auto& p = profile();
  // nvpmodel that answers queries but fails every mode change, as NVIDIA's does on a bad conf.
  const std::string real = sim_dir_.path() + "/" + p.name + "/bin/nvpmodel";
  const std::string failing = sim_dir_.path() + "/failing-nvpmodel";
  write_executable(failing,
                   "#!/bin/sh\n"
                   "for a in \"$@\"; do [ \"$a\" = -m ] && { echo 'NVPM ERROR: failed to apply mode' >&2; exit 1; }; done\n"
                   "exec " + real + " \"$@\"\n");
  {
    daemon_process create(args());  // creates the board (and its nvpmodel) first
  }
  auto a = args();
  a.insert(a.end(), {"--nvpmodel", failing});
  daemon_process d(a);
  http_client http(d.port());
  const file_map before = settings_files(root(), p);
  const auto auth = bearer(d.token());

  EXPECT_EQ(http.request("PUT", "/v1/power-mode", R"({"id": 999})", auth).status, 400);
  EXPECT_EQ(http.request("PUT", "/v1/clocks", R"({"gpu": 12345})", auth).status, 400);
  EXPECT_EQ(http.request("PUT", "/v1/clocks", R"({"gpu": )", auth).status, 400);
  EXPECT_EQ(http.request("PUT", "/v1/power-mode", "[1,2", auth).status, 400);

  // nvpmodel fails: 502 for a mode switched without a reboot. A mode that needs one is refused
  // before nvpmodel runs: 409, and forced 400 naming force (the API never reboots for a switch
  // that jetperfd's next start would undo).
  if (const auto* live = live_mode(p)) {
    const auto r = http.request("PUT", "/v1/power-mode", json{{"id", live->id}}.dump(), auth);
    EXPECT_EQ(r.status, 502) << r.body;
  } else {
    const auto r = http.request("PUT", "/v1/power-mode", json{{"id", other_mode(p).id}}.dump(), auth);
    EXPECT_EQ(r.status, 409) << r.body;
    const auto forced = http.request("PUT", "/v1/power-mode", json{{"id", other_mode(p).id}, {"force", true}}.dump(), auth);
    EXPECT_EQ(forced.status, 400) << forced.body;
    EXPECT_EQ(json_of(forced)["error"]["field"], "force") << forced.body;
  }
  const auto& m = other_mode(p);
  EXPECT_EQ(join(differences(before, settings_files(root(), p))), "");

  // A change while a job runs would fight the job's own settings.
  const auto id = submit_idle(http, d.token(), 3.0, 1);
  ASSERT_EQ(wait_state(http, id, {"running"}), "running");
  EXPECT_EQ(http.request("PUT", "/v1/power-mode", json{{"id", m.id}}.dump(), auth).status, 409);
  EXPECT_EQ(http.request("PUT", "/v1/clocks", json{{"gpu", "max"}}.dump(), auth).status, 409);
  http.request("DELETE", "/v1/jobs/" + std::to_string(id), "", auth);
  EXPECT_EQ(join(differences(before, settings_files(root(), p))), "");
}

INSTANTIATE_TEST_SUITE_P(profiles, sim_board_api,
                         ::testing::Values("tx2", "nano", "xavier-agx", "xavier-nx", "orin-agx", "orin-nano",
                                           "orin-agx-jp7", "thor"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace jetperf::test
