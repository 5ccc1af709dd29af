#include <jetperf/platform/board_setting.hpp>
#include <jetperf/platform/clock_control.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

std::string core_online_path(int core) {
  return std::string(paths::cpu_dir) + "/cpu" + std::to_string(core) + "/online";
}

// The EMC rate file can follow an override a moment later (a simulated board's rail simulator
// rewrites it every tick): wait briefly for it to show the rate asked for, so that what is read
// back afterwards, and flagged when it differs, is the board's answer rather than a stale one.
void wait_for_rate(const sysfs_root& root, const std::string& path, long long hz) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (root.try_read_int(path) != hz && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

}  // namespace

long long check_frequency(long long value, const std::vector<long long>& offered, const std::string& field) {
  return check_offered_clock(value, std::vector<std::int64_t>(offered.begin(), offered.end()), field, field);
}

clock_control::clock_control(sysfs_root root, board_discovery discovery)
    : root_(std::move(root)), discovery_(std::move(discovery)) {}

std::vector<long long> clock_control::read_list(const std::string& path) const {
  std::vector<long long> out;
  auto text = root_.try_read(path);
  if (!text) return out;
  std::istringstream in(*text);
  long long v;
  while (in >> v) out.push_back(v);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void clock_control::write_checked(const std::string& path, const std::string& value) {
  root_.write(path, value);
  const std::string back = root_.read(path);
  if (back != value)
    throw platform_error("wrote '" + value + "' to " + root_.host_path(path) + " but it reads back '" + back + "'");
}

void clock_control::write_range(const std::string& min_path, const std::string& max_path, long long cur_max,
                                const clock_range& range) {
  if (range.min > range.max)
    throw validation_error("range", "min " + std::to_string(range.min) + " is above max " + std::to_string(range.max));
  // Keep min <= max at every step: going up, raise max first; otherwise lower/set min first.
  if (range.min > cur_max) {
    write_checked(max_path, std::to_string(range.max));
    write_checked(min_path, std::to_string(range.min));
  } else {
    write_checked(min_path, std::to_string(range.min));
    write_checked(max_path, std::to_string(range.max));
  }
}

// GPU ------------------------------------------------------------------------------------------

std::vector<long long> clock_control::gpu_available_hz() const {
  if (!has_gpu()) return {};
  return read_list(discovery_.gpu->freq_dir + "/available_frequencies");
}

long long clock_control::gpu_current_hz() const {
  if (!has_gpu()) throw platform_error("no GPU devfreq node on this board");
  return root_.read_int(discovery_.gpu->freq_dir + "/cur_freq");
}

clock_range clock_control::gpu_range() const {
  if (!has_gpu()) throw platform_error("no GPU devfreq node on this board");
  const std::string& d = discovery_.gpu->freq_dir;
  return {root_.read_int(d + "/min_freq"), root_.read_int(d + "/max_freq"), root_.try_read(d + "/governor").value_or("")};
}

void clock_control::lock_gpu(long long hz) {
  check_frequency(hz, gpu_available_hz(), "gpu_freq_hz");
  set_gpu_range({hz, hz, {}});
}

void clock_control::set_gpu_range(const clock_range& range) {
  clock_range cur = gpu_range();
  const std::string& d = discovery_.gpu->freq_dir;
  write_range(d + "/min_freq", d + "/max_freq", cur.max, range);
  if (!range.governor.empty() && range.governor != cur.governor) write_checked(d + "/governor", range.governor);
}

// CPU ------------------------------------------------------------------------------------------

std::vector<long long> clock_control::cluster_available_khz(size_t cluster) const {
  return read_list(discovery_.clusters.at(cluster).cpufreq_dir + "/scaling_available_frequencies");
}

std::vector<long long> clock_control::cpu_available_khz() const {
  std::vector<long long> common;
  bool first = true;
  for (size_t i = 0; i < discovery_.clusters.size(); ++i) {
    auto list = cluster_available_khz(i);
    if (first) {
      common = list;
      first = false;
    } else {
      std::vector<long long> both;
      std::set_intersection(common.begin(), common.end(), list.begin(), list.end(), std::back_inserter(both));
      common.swap(both);
    }
  }
  return common;
}

clock_range clock_control::cpu_range(size_t cluster) const {
  const std::string& d = discovery_.clusters.at(cluster).cpufreq_dir;
  return {root_.read_int(d + "/scaling_min_freq"), root_.read_int(d + "/scaling_max_freq"),
          root_.try_read(d + "/scaling_governor").value_or("")};
}

std::optional<long long> clock_control::cpu_current_khz(size_t cluster) const {
  return root_.try_read_int(discovery_.clusters.at(cluster).cpufreq_dir + "/scaling_cur_freq");
}

void clock_control::set_cpu_range(size_t cluster, const clock_range& range) {
  clock_range cur = cpu_range(cluster);
  const std::string& d = discovery_.clusters.at(cluster).cpufreq_dir;
  write_range(d + "/scaling_min_freq", d + "/scaling_max_freq", cur.max, range);
  if (!range.governor.empty() && range.governor != cur.governor) write_checked(d + "/scaling_governor", range.governor);
}

bool clock_control::cluster_online(size_t cluster) const {
  auto online = online_cores();
  for (int c : discovery_.clusters.at(cluster).cores)
    if (std::binary_search(online.begin(), online.end(), c)) return true;
  return false;
}

void clock_control::lock_cpu(long long khz) {
  check_frequency(khz, cpu_available_khz(), "cpu_freq_khz");
  for (size_t i = 0; i < discovery_.clusters.size(); ++i)
    if (cluster_online(i)) set_cpu_range(i, {khz, khz, {}});
}

std::vector<int> clock_control::online_cores() const {
  // The per-core files are what jetperf writes, so they are the truth; the summary list covers
  // cores without such a file (cpu0 on most boards).
  std::vector<int> summary;
  if (auto text = root_.try_read(paths::cpu_online)) summary = parse_cpu_list(*text);
  std::vector<int> out;
  for (int c : discovery_.cores) {
    auto v = root_.try_read(core_online_path(c));
    bool online = v ? *v == "1" : (summary.empty() || std::binary_search(summary.begin(), summary.end(), c));
    if (online) out.push_back(c);
  }
  if (discovery_.cores.empty()) return summary;
  return out;
}

void clock_control::set_core_online(int core, bool online) {
  const std::string path = core_online_path(core);
  if (!root_.exists(path)) {
    if (online) return;
    throw platform_error("core " + std::to_string(core) + " cannot be taken offline (no " + root_.host_path(path) + ")");
  }
  write_checked(path, online ? "1" : "0");
}

// EMC ------------------------------------------------------------------------------------------

std::vector<long long> clock_control::emc_available_hz() const {
  if (!has_emc()) return {};
  const emc_files& e = discovery_.emc;
  if (!e.possible.empty()) {
    auto list = read_list(e.possible);
    if (!list.empty()) return list;
  }
  // Without a rate table, offer the rates the board itself reports, its min and max, and the
  // rates its power modes cap EMC at (the EMC runs at its cap in those modes; leaving a max above
  // the current mode's cap out of the list left only the min, README 2: jtop lowers the max to
  // the cap instead).
  std::vector<long long> out;
  const auto lo = root_.try_read_int(e.min_rate);
  const auto hi = root_.try_read_int(e.max_rate);
  if (lo) out.push_back(*lo);
  if (hi) out.push_back(*hi);
  for (auto cap : emc_mode_caps_)
    if (lo && hi && cap > *lo && cap < *hi) out.push_back(cap);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

emc_setting clock_control::emc() const {
  if (!has_emc()) throw platform_error("no EMC control files on this board (debugfs not mounted or not root?)");
  const emc_files& e = discovery_.emc;
  emc_setting s;
  s.rate = root_.read_int(e.rate);
  s.min = root_.try_read_int(e.min_rate).value_or(0);
  s.max = root_.try_read_int(e.max_rate).value_or(0);
  s.locked = root_.try_read_int(e.lock).value_or(0) != 0;
  s.request = e.kind == "t210" ? root_.try_read_int(e.update).value_or(0) : s.rate;
  return s;
}

void clock_control::lock_emc(long long hz) {
  check_frequency(hz, emc_available_hz(), "emc_freq_hz");
  const emc_files& e = discovery_.emc;
  // jetson_clocks (README 2): t210 writes the rate to override.emc/clk_update_rate and then sets
  // clk_state; bpmp boards set mrq_rate_locked and write the rate. The exact script sequence is
  // [unconfirmed]; the rate is read back from the current-rate file either way.
  if (e.kind == "t210") {
    write_checked(e.update, std::to_string(hz));
    write_checked(e.lock, "1");
  } else {
    write_checked(e.lock, "1");
    // The rate file reads the clock's rate, which the BPMP sets after the request (and a
    // governor's change already under way may land first): read back after the wait, not at once.
    root_.write(e.rate, std::to_string(hz));
  }
  wait_for_rate(root_, e.rate, hz);
  if (e.kind != "t210") {
    const std::string back = root_.read(e.rate);
    if (back != std::to_string(hz))
      throw platform_error("wrote '" + std::to_string(hz) + "' to " + root_.host_path(e.rate) + " but it reads back '" +
                           back + "'");
  }
}

void clock_control::restore_emc(const emc_setting& setting) {
  if (!has_emc()) return;
  const emc_files& e = discovery_.emc;
  const std::string request = e.kind == "t210" ? e.update : e.rate;
  if (setting.locked) {
    write_checked(request, std::to_string(setting.request));
    write_checked(e.lock, "1");
    return;
  }
  write_checked(e.lock, "0");
  if (e.kind == "t210") {
    write_checked(request, std::to_string(setting.request));
  } else if (root_.try_read_int(request) != setting.request) {
    // Unlocked, the BPMP owns the rate: ask for the old one, but do not insist on reading it back.
    root_.write(request, std::to_string(setting.request));
  }
}

void clock_control::unlock_emc() {
  if (!has_emc()) return;
  write_checked(discovery_.emc.lock, "0");
}

// Fan ------------------------------------------------------------------------------------------

std::optional<int> clock_control::fan_pwm() const {
  if (!has_fan()) return std::nullopt;
  auto v = root_.try_read_int(discovery_.fan_pwm);
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

void clock_control::set_fan_pwm(int pwm) {
  if (!has_fan()) throw platform_error("no fan PWM on this board");
  if (pwm < 0 || pwm > 255) throw validation_error("fan_pwm", "fan_pwm must be 0..255, got " + std::to_string(pwm));
  write_checked(discovery_.fan_pwm, std::to_string(pwm));
}

}  // namespace jetperf::platform
