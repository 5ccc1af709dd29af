#include <jetperf/sim/kernel_write.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <jetperf/common/errors.hpp>
#include <jetperf/sim/board_tree.hpp>

#include "file_io.hpp"

namespace fs = std::filesystem;

namespace jetperf::sim {
namespace {

long long parse_value(const std::string& path, const std::string& value) {
  const char* s = value.c_str();
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s, &end, 10);
  while (end && (*end == '\n' || *end == ' ')) ++end;
  if (end == s || *end != '\0' || errno) throw platform_error("invalid argument writing '" + value + "' to " + path);
  return v;
}

// The board path a host path names, with symlinks resolved (so aliases compare equal).
std::string canonical_board_path(const std::string& root, const std::string& board_path) {
  std::error_code ec;
  fs::path real = fs::canonical(root + board_path, ec);
  fs::path r = fs::canonical(root, ec);
  if (ec) return board_path;
  std::string s = real.string(), rs = r.string();
  return s.rfind(rs, 0) == 0 ? s.substr(rs.size()) : s;
}

void put(const std::string& host, long long v) { detail::write_in_place(host, std::to_string(v) + "\n"); }

}  // namespace

long long table_floor(const std::vector<long long>& t, long long v) {
  long long best = t.front();
  for (long long f : t)
    if (f <= v) best = f;
  return best;
}

long long table_ceil(const std::vector<long long>& t, long long v) {
  for (long long f : t)
    if (f >= v) return f;
  return t.back();
}

void refresh_cpu_online(const board_profile& p, const std::string& root) {
  std::vector<bool> on(p.core_count()), off(p.core_count());
  for (int i = 0; i < p.core_count(); ++i) {
    auto v = detail::read_ll(root + "/sys/devices/system/cpu/cpu" + std::to_string(i) + "/online");
    on[i] = !v || *v != 0;
    off[i] = !on[i];
  }
  detail::write_in_place(root + "/sys/devices/system/cpu/online", cpu_range_list(on) + "\n");
  detail::write_in_place(root + "/sys/devices/system/cpu/offline", cpu_range_list(off) + "\n");
}

void kernel_write(const board_profile& p, const std::string& root, const std::string& board_path,
                  const std::string& value) {
  const std::string host = root + board_path;
  if (!fs::exists(host)) throw platform_error("cannot write " + host + ": No such file or directory");
  const std::string real = canonical_board_path(root, board_path);
  const std::string real_dir = fs::path(real).parent_path().string();
  const std::string file = fs::path(real).filename().string();
  const std::string real_host = root + real;

  // GPU devfreq limits: the table entry at or under the cap, at or over the floor.
  if (real_dir == canonical_board_path(root, p.gpu_devfreq_dir) && (file == "max_freq" || file == "min_freq")) {
    long long v = parse_value(host, value);
    const auto& t = p.gpu_freqs_hz;
    long long mn = detail::read_ll(root + real_dir + "/min_freq").value_or(t.front());
    long long mx = detail::read_ll(root + real_dir + "/max_freq").value_or(t.back());
    if (file == "max_freq") {
      mx = table_floor(t, v);
      mn = std::min(mn, mx);
    } else {
      mn = table_ceil(t, v);
      mx = std::max(mx, mn);
    }
    put(root + real_dir + "/min_freq", mn);
    put(root + real_dir + "/max_freq", mx);
    long long cur = detail::read_ll(root + real_dir + "/cur_freq").value_or(mn);
    put(root + real_dir + "/cur_freq", std::clamp(cur, mn, mx));
    return;
  }
  // cpufreq policy limits: clamped to cpuinfo_min/max; the kernel keeps min <= max.
  if (real_dir.find("/cpufreq/policy") != std::string::npos && (file == "scaling_max_freq" || file == "scaling_min_freq")) {
    long long v = parse_value(host, value);
    const std::string d = root + real_dir;
    long long lo = detail::read_ll(d + "/cpuinfo_min_freq").value_or(0);
    long long hi = detail::read_ll(d + "/cpuinfo_max_freq").value_or(v);
    long long mn = detail::read_ll(d + "/scaling_min_freq").value_or(lo);
    long long mx = detail::read_ll(d + "/scaling_max_freq").value_or(hi);
    v = std::clamp(v, lo, hi);
    if (file == "scaling_max_freq") {
      mx = v;
      mn = std::min(mn, mx);
    } else {
      mn = std::min(v, mx);
    }
    put(d + "/scaling_min_freq", mn);
    put(d + "/scaling_max_freq", mx);
    long long cur = detail::read_ll(d + "/scaling_cur_freq").value_or(mn);
    put(d + "/scaling_cur_freq", std::clamp(cur, mn, mx));
    return;
  }
  if (file == "online" && real_dir.rfind("/sys/devices/system/cpu/cpu", 0) == 0) {
    long long v = parse_value(host, value);
    if (v != 0 && v != 1) throw platform_error("invalid argument writing '" + value + "' to " + host);
    detail::write_in_place(real_host, std::to_string(v) + "\n");
    refresh_cpu_online(p, root);
    return;
  }
  std::string text = value;
  if (text.empty() || text.back() != '\n') text += '\n';
  detail::write_in_place(real_host, text);
}

}  // namespace jetperf::sim
