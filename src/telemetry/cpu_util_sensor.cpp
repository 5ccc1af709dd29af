#include <jetperf/telemetry/cpu_util_sensor.hpp>

#include <limits>
#include <sstream>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::telemetry {

std::vector<cpu_jiffies> parse_proc_stat(const std::string& text) {
  std::vector<cpu_jiffies> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) continue;
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    std::size_t slot = 0;
    if (name != "cpu") {
      try {
        slot = std::stoul(name.substr(3)) + 1;
      } catch (const std::exception&) {
        continue;
      }
    }
    // user nice system idle iowait irq softirq steal (guest is already inside user)
    unsigned long long v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (auto& x : v) {
      if (!(fields >> x)) break;
    }
    cpu_jiffies j;
    for (auto x : v) j.total += x;
    j.busy = j.total - v[3] - v[4];
    if (out.size() <= slot) out.resize(slot + 1);
    out[slot] = j;
  }
  return out;
}

cpu_util_sensor::cpu_util_sensor(const platform::sysfs_root& root, std::int64_t min_interval_ns)
    : file_(root.host_path(platform::paths::proc_stat)), min_interval_ns_(min_interval_ns) {
  if (auto text = file_.read_text()) last_ = parse_proc_stat(*text);
  for (std::size_t i = 0; i < last_.size(); ++i) {
    std::string name = i == 0 ? "util.cpu" : "util.cpu" + std::to_string(i - 1);
    channels_.push_back({name, "%", channel_kind::utilisation, platform::paths::proc_stat});
  }
}

void cpu_util_sensor::read(std::int64_t, double* values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto text = file_.read_text();
  std::vector<cpu_jiffies> now = text ? parse_proc_stat(*text) : std::vector<cpu_jiffies>{};
  for (std::size_t i = 0; i < channels_.size(); ++i) {
    values[i] = nan;
    if (i >= now.size() || i >= last_.size()) continue;
    unsigned long long dt = now[i].total - last_[i].total;
    if (now[i].total <= last_[i].total || now[i].busy < last_[i].busy) continue;
    values[i] = 100.0 * static_cast<double>(now[i].busy - last_[i].busy) / static_cast<double>(dt);
  }
  if (!now.empty()) last_ = std::move(now);
}

}  // namespace jetperf::telemetry
