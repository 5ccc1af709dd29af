#include <jetperf/sim/host_cpu_stat.hpp>

#include <sstream>

#include "file_io.hpp"

namespace jetperf::sim {

host_cpu_stat::host_cpu_stat(std::string proc_stat) : path_(std::move(proc_stat)) {}

std::vector<double> host_cpu_stat::sample() {
  auto text = detail::read_text(path_);
  if (!text) return {};
  std::vector<times> now;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    // Per-CPU lines only ("cpu0 ..."), not the "cpu " total.
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] == ' ') continue;
    std::istringstream f(line);
    std::string name;
    unsigned long long user = 0, nice = 0, sys = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    f >> name >> user >> nice >> sys >> idle >> iowait >> irq >> softirq >> steal;
    times t;
    t.busy = user + nice + sys + irq + softirq + steal;
    t.total = t.busy + idle + iowait;
    now.push_back(t);
  }
  std::vector<double> util(now.size(), 0.0);
  for (size_t i = 0; i < now.size(); ++i) {
    times prev = i < last_.size() ? last_[i] : times{};
    unsigned long long db = now[i].busy - prev.busy, dt = now[i].total - prev.total;
    util[i] = dt ? static_cast<double>(db) / static_cast<double>(dt) : 0.0;
    if (util[i] < 0) util[i] = 0;
    if (util[i] > 1) util[i] = 1;
  }
  last_ = std::move(now);
  return util;
}

}  // namespace jetperf::sim
