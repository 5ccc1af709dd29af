#include <jetperf/platform/cpu_usage.hpp>

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <jetperf/common/clock.hpp>

namespace jetperf::platform {

namespace {

std::vector<int> affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

double busy_seconds(const std::string& stat_text, const std::vector<int>& cores, long ticks_per_s) {
  std::map<int, double> busy;  // core -> ticks
  std::istringstream in(stat_text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || !std::isdigit(static_cast<unsigned char>(line[3])))
      continue;
    std::istringstream fields(line.substr(3));
    int core = -1;
    // user nice system idle iowait irq softirq steal (guest time is inside user already)
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    fields >> core >> user >> nice >> system >> idle >> iowait >> irq >> softirq;
    if (!fields) continue;
    fields >> steal;  // absent before Linux 2.6.11
    busy[core] = user + nice + system + irq + softirq + steal;
  }
  double ticks = 0;
  for (int c : cores) {
    const auto it = busy.find(c);
    if (it == busy.end()) throw std::runtime_error("/proc/stat has no line for cpu" + std::to_string(c));
    ticks += it->second;
  }
  return ticks / static_cast<double>(ticks_per_s);
}

double others_share(const cpu_usage_snapshot& a, const cpu_usage_snapshot& b) {
  const double wall = static_cast<double>(b.t_ns - a.t_ns) * 1e-9 * std::max(1, b.cores);
  if (wall <= 0) return 0;
  const double others = (b.busy_s - a.busy_s) - (b.own_s - a.own_s);
  return std::clamp(others / wall, 0.0, 1.0);
}

proc_cpu_usage::proc_cpu_usage(std::string stat_path) : path_(std::move(stat_path)) {}

cpu_usage_snapshot proc_cpu_usage::now() const {
  std::ifstream in(path_);
  if (!in) throw std::runtime_error("cannot read " + path_);
  std::stringstream text;
  text << in.rdbuf();
  const auto cores = affinity_cores();
  cpu_usage_snapshot s;
  s.t_ns = monotonic_ns();
  s.own_s = process_cpu_s();
  s.busy_s = busy_seconds(text.str(), cores, sysconf(_SC_CLK_TCK));
  s.cores = static_cast<int>(cores.size());
  return s;
}

}  // namespace jetperf::platform
