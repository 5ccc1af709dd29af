#include "proc_stat_text.hpp"

#include <sstream>

namespace jetperf::sim::detail {
namespace {

void line(std::ostringstream& o, const std::string& name, double busy, double idle) {
  // user nice system idle iowait irq softirq steal guest guest_nice
  o << name << ' ' << static_cast<unsigned long long>(busy) << " 0 0 " << static_cast<unsigned long long>(idle)
    << " 0 0 0 0 0 0\n";
}

}  // namespace

std::string proc_stat_text(const std::vector<core_jiffies>& cores) {
  double busy = 0, idle = 0;
  for (const auto& c : cores) {
    busy += c.busy;
    idle += c.idle;
  }
  std::ostringstream o;
  line(o, "cpu ", busy, idle);
  for (size_t i = 0; i < cores.size(); ++i)
    if (cores[i].online) line(o, "cpu" + std::to_string(i), cores[i].busy, cores[i].idle);
  return o.str();
}

}  // namespace jetperf::sim::detail
