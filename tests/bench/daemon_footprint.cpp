// What an idle jetperfd costs (issue "Hardening" 13): CPU (% of one core) and RSS of the real
// daemon, started as on a board, and the simulator's own cost apart.
//   board: --board jetson over a simulated Orin AGX's sysfs tree and its nvpmodel/tegrastats
//          programs, with no simulator thread in the daemon: what a Jetson's daemon does at idle
//          (sampler at its idle rate, HTTP, runner waiting).
//   sim:   --board sim:orin-agx, the same board served by the daemon's simulator (rail model,
//          clocks, workload threads); sim minus board is the simulator's cost.
// The two alternate `repeats` times (medians, with min and max); each run waits 3 s after the
// daemon is ready, then counts its threads' and children's CPU time over `seconds`. Per thread
// (pthread names: jp-sampler, jp-http-0, ...) so that who costs what is visible. A CUDA build
// also says whether its CUDA plugin got mapped (it must not be, at idle).
// Prints one JSON object. Targets: board <= 0.5% of a core and <= 40 MB RSS.
// Usage: bench_daemon_footprint [seconds=20] [repeats=3]
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/process_memory.hpp>
#include <support/temp_dir.hpp>

using jetperf::test::daemon_process;
using jetperf::test::loadavg1;
using jetperf::test::status_kb;
using jetperf::test::temp_dir;
using nlohmann::json;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// utime + stime in clock ticks from a /proc stat line (the name in parentheses may hold spaces).
long long cpu_ticks(const std::string& stat) {
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(stat.substr(close + 2));
  std::string field;
  long long utime = 0, stime = 0;
  for (int i = 3; in >> field; ++i) {
    if (i == 14) utime = std::stoll(field);
    if (i == 15) {
      stime = std::stoll(field);
      break;
    }
  }
  return utime + stime;
}

int parent_of(const std::string& stat) {
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(stat.substr(close + 2));
  std::string state;
  int ppid = 0;
  in >> state >> ppid;
  return ppid;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') out.emplace_back(e->d_name);
    ::closedir(d);
  }
  return out;
}

// CPU ticks per thread name ("jp-sampler", ...; children as "child:<comm>"), threads of one name summed.
std::map<std::string, long long> ticks_by_thread(int pid) {
  std::map<std::string, long long> out;
  const std::string base = "/proc/" + std::to_string(pid);
  for (const auto& tid : entries(base + "/task")) {
    auto name = read_text(base + "/task/" + tid + "/comm");
    if (!name.empty() && name.back() == '\n') name.pop_back();
    out[name] += cpu_ticks(read_text(base + "/task/" + tid + "/stat"));
  }
  for (const auto& p : entries("/proc")) {
    if (p.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto stat = read_text("/proc/" + p + "/stat");
    if (parent_of(stat) != pid) continue;
    auto name = read_text("/proc/" + p + "/comm");
    if (!name.empty() && name.back() == '\n') name.pop_back();
    out["child:" + name] += cpu_ticks(stat);
  }
  return out;
}

json measure(int pid, double seconds) {
  std::this_thread::sleep_for(std::chrono::seconds(3));  // start-up work done
  const double hz = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const auto before = ticks_by_thread(pid);
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  const auto after = ticks_by_thread(pid);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  json threads = json::object();
  long long total = 0;
  for (const auto& [name, t] : after) {
    const auto it = before.find(name);
    const long long dt = t - (it == before.end() ? 0 : it->second);
    total += dt;
    threads[name] = 100.0 * static_cast<double>(dt) / hz / wall;
  }
  const std::string maps = read_text("/proc/" + std::to_string(pid) + "/maps");
  return {{"cpu_percent", 100.0 * static_cast<double>(total) / hz / wall},
          {"rss_mb", static_cast<double>(status_kb(pid, "VmRSS")) / 1024.0},
          {"rss_anon_mb", static_cast<double>(status_kb(pid, "RssAnon")) / 1024.0},
          {"rss_file_mb", static_cast<double>(status_kb(pid, "RssFile")) / 1024.0},
          {"threads", threads},
          {"cuda_mapped", maps.find("libjetperf_cuda") != std::string::npos || maps.find("libcublas") != std::string::npos}};
}

json stats(const std::vector<double>& v) {
  auto s = v;
  std::sort(s.begin(), s.end());
  return {{"median", s[s.size() / 2]}, {"min", s.front()}, {"max", s.back()}, {"runs", v}};
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  temp_dir sims;
  const std::string board = sims.path() + "/orin-agx";
  const std::vector<std::string> sim_args = {"--board", "sim:orin-agx", "--sim-dir", sims.path(), "--log-level", "warn"};
  const std::vector<std::string> board_args = {"--board",      "jetson",
                                               "--sysfs-root", board + "/root",
                                               "--nvpmodel",   board + "/bin/nvpmodel",
                                               "--tegrastats", board + "/bin/tegrastats",
                                               "--log-level",  "warn"};
  std::map<std::string, std::vector<json>> runs;
  const double load_before = loadavg1();
  for (int r = 0; r < repeats; ++r) {
    // The simulated daemon first: it writes the board tree the plain one then reads.
    for (const auto* mode : {"sim", "board"}) {
      daemon_process d(std::string(mode) == "sim" ? sim_args : board_args);
      runs[mode].push_back(measure(d.pid(), seconds));
    }
  }
  json out;
  out["bench"] = "daemon_footprint";
  out["seconds"] = seconds;
  out["repeats"] = repeats;
  out["loadavg_1m_before"] = load_before;
  out["loadavg_1m_after"] = loadavg1();
  std::map<std::string, double> median_cpu;
  for (const auto& [mode, list] : runs) {
    std::vector<double> cpu, rss, anon;
    std::map<std::string, std::vector<double>> per_thread;
    bool cuda = false;
    for (const auto& m : list) {
      cpu.push_back(m["cpu_percent"]);
      rss.push_back(m["rss_mb"]);
      anon.push_back(m["rss_anon_mb"]);
      cuda = cuda || m["cuda_mapped"].get<bool>();
      for (const auto& [name, v] : m["threads"].items()) per_thread[name].push_back(v.get<double>());
    }
    json threads = json::object();
    for (auto& [name, v] : per_thread) {
      std::sort(v.begin(), v.end());
      threads[name] = v[v.size() / 2];
    }
    median_cpu[mode] = stats(cpu)["median"];
    out[mode] = {{"cpu_percent", stats(cpu)},
                 {"rss_mb", stats(rss)},
                 {"rss_anon_mb", stats(anon)},
                 {"threads_cpu_percent_median", threads},
                 {"cuda_mapped", cuda}};
  }
  out["simulator_cpu_percent"] = median_cpu["sim"] - median_cpu["board"];
  const double board_cpu = out["board"]["cpu_percent"]["median"];
  const double board_rss = out["board"]["rss_mb"]["max"];
  out["target"] = {{"board_cpu_percent", 0.5}, {"board_rss_mb", 40}};
  out["meets_target"] = board_cpu <= 0.5 && board_rss <= 40.0 && !out["board"]["cuda_mapped"].get<bool>();
  std::cout << out.dump(2) << std::endl;
  return 0;
}
