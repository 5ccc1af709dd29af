#include <support/process_memory.hpp>

#include <cstdlib>
#include <fstream>

namespace jetperf::test {

long long status_kb(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + ":", 0) == 0) return std::atoll(line.c_str() + key.size() + 1);
  return -1;
}

bool reset_peak_rss(pid_t pid) {
  std::ofstream out("/proc/" + std::to_string(pid) + "/clear_refs");
  out << "5";
  out.close();
  return static_cast<bool>(out);
}

double loadavg1() {
  std::ifstream in("/proc/loadavg");
  double l = 0;
  in >> l;
  return l;
}

}  // namespace jetperf::test
