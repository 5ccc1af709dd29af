#include <jetperf/telemetry/clock_sensor.hpp>

#include <algorithm>
#include <limits>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::telemetry {
namespace {

// Both EMC rate files live in debugfs (root only); t186/t194/t234 first, then t210.
const char* const emc_rate_paths[] = {platform::paths::bpmp_emc_rate, platform::paths::t210_emc_rate};

}  // namespace

clock_sensor::clock_sensor(const platform::sysfs_root& root, std::optional<platform::gpu_node> gpu,
                           std::int64_t min_interval_ns)
    : min_interval_ns_(min_interval_ns) {
  auto add = [&](const std::string& name, const std::string& unit, channel_kind kind, const std::string& path,
                 double scale) {
    detail::sysfs_file f(root.host_path(path));
    if (!f.ok()) return;
    channels_.push_back({name, unit, kind, path});
    files_.push_back(std::move(f));
    scale_.push_back(scale);
  };
  if (!gpu) gpu = platform::find_gpu_node(root);
  if (gpu) {
    add("clock.gpu", "Hz", channel_kind::clock, gpu->freq_dir + "/cur_freq", 1.0);
    // `load` is per-mille; jtop divides by 10 for percent.
    add("util.gpu", "%", channel_kind::utilisation, gpu->device_dir + "/load", 0.1);
  }
  for (const char* p : emc_rate_paths) {
    if (root.exists(p)) {
      add("clock.emc", "Hz", channel_kind::clock, p, 1.0);
      break;
    }
  }
  const std::string cpu_base = platform::paths::cpu_dir;
  std::vector<int> cpus;
  for (const auto& e : root.list(cpu_base)) {
    if (e.size() > 3 && e.rfind("cpu", 0) == 0 &&
        std::all_of(e.begin() + 3, e.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      cpus.push_back(std::stoi(e.substr(3)));
    }
  }
  std::sort(cpus.begin(), cpus.end());
  for (int n : cpus) {
    std::string c = std::to_string(n);
    add("clock.cpu" + c, "Hz", channel_kind::clock, cpu_base + "/cpu" + c + "/cpufreq/scaling_cur_freq", 1000.0);
    // An offline core keeps a stale scaling_cur_freq: it has no clock, so it reads as "no value"
    // (and cannot look throttled). cpu0 usually has no online file: always online.
    if (online_.size() < files_.size()) {
      online_.resize(files_.size());
      detail::sysfs_file online(root.host_path(cpu_base + "/cpu" + c + "/online"));
      if (online.ok()) online_.back() = std::move(online);
    }
  }
}

void clock_sensor::read(std::int64_t, double* values) {
  for (std::size_t i = 0; i < files_.size(); ++i) {
    if (i < online_.size() && online_[i]) {
      auto on = online_[i]->read_int();
      if (on && *on == 0) {
        values[i] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
    }
    auto v = files_[i].read_int();
    values[i] = v ? static_cast<double>(*v) * scale_[i] : std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace jetperf::telemetry
