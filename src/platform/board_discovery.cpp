#include <jetperf/platform/board_discovery.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

std::optional<int> core_number(const std::string& entry) {
  if (entry.size() < 4 || entry.compare(0, 3, "cpu") != 0) return std::nullopt;
  for (size_t i = 3; i < entry.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(entry[i]))) return std::nullopt;
  return std::stoi(entry.substr(3));
}

std::string find_fan(const sysfs_root& root) {
  const std::string cls = paths::hwmon_class;
  for (const auto& entry : root.list(cls)) {
    const std::string dir = cls + "/" + entry;
    auto name = root.try_read(dir + "/name");
    if (name && (*name == "pwmfan" || *name == "pwm-fan") && root.exists(dir + "/pwm1")) return dir + "/pwm1";
  }
  if (root.exists(paths::fan_pwm_r32)) return paths::fan_pwm_r32;
  if (root.exists(paths::fan_pwm_legacy)) return paths::fan_pwm_legacy;
  return {};
}

emc_files find_emc(const sysfs_root& root, const board_info& info) {
  emc_files e;
  if (info.family == "t210") {
    if (root.exists(paths::t210_emc_rate)) {
      e.kind = "t210";
      e.rate = paths::t210_emc_rate;
      e.min_rate = paths::t210_emc_min;
      e.max_rate = paths::t210_emc_max;
      e.lock = paths::t210_emc_state;
      e.update = paths::t210_emc_update;
    }
  } else if (root.exists(paths::bpmp_emc_rate)) {
    e.kind = "bpmp";
    e.rate = paths::bpmp_emc_rate;
    e.min_rate = paths::bpmp_emc_min;
    e.max_rate = paths::bpmp_emc_max;
    e.lock = paths::bpmp_emc_locked;
    if (root.exists(paths::bpmp_emc_possible)) e.possible = paths::bpmp_emc_possible;
  }
  if (root.exists(paths::emc_clk_cap)) e.cap = paths::emc_clk_cap;
  else if (root.exists(paths::emc_iso_cap)) e.cap = paths::emc_iso_cap;
  return e;
}

}  // namespace

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> out;
  std::string normal = text;
  for (auto& c : normal)
    if (c == ',' || c == '\n' || c == '\t') c = ' ';
  std::istringstream in(normal);
  std::string part;
  while (in >> part) {
    try {
      auto dash = part.find('-');
      if (dash == std::string::npos) {
        out.push_back(std::stoi(part));
      } else {
        int a = std::stoi(part.substr(0, dash)), b = std::stoi(part.substr(dash + 1));
        for (int i = a; i <= b && i - a < 4096; ++i) out.push_back(i);
      }
    } catch (const std::exception&) {
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

board_discovery discover_board(const sysfs_root& root, const board_info& info) {
  board_discovery d;
  d.gpu = find_gpu_node(root);

  const std::string cpu = paths::cpu_dir;
  for (const auto& entry : root.list(cpu))
    if (auto n = core_number(entry)) d.cores.push_back(*n);
  std::sort(d.cores.begin(), d.cores.end());

  // Policies: through cpuN/cpufreq (a link to policyK on newer kernels), then policy dirs for
  // cores whose link is gone while offline. related_cpus names the cores of a policy.
  std::map<std::string, std::vector<int>> policies;
  std::vector<std::string> order;
  auto add_policy = [&](const std::string& dir, int core) {
    if (!policies.count(dir)) order.push_back(dir);
    auto& cores = policies[dir];
    if (auto related = root.try_read(dir + "/related_cpus")) {
      for (int c : parse_cpu_list(*related)) cores.push_back(c);
    }
    if (core >= 0) cores.push_back(core);
  };
  for (int c : d.cores) {
    if (auto dir = root.resolve(cpu + "/cpu" + std::to_string(c) + "/cpufreq")) {
      if (root.is_directory(*dir)) add_policy(*dir, c);
    }
  }
  for (const auto& entry : root.list(paths::cpufreq_dir)) {
    if (entry.rfind("policy", 0) != 0) continue;
    if (auto dir = root.resolve(std::string(paths::cpufreq_dir) + "/" + entry)) add_policy(*dir, -1);
  }
  for (const auto& dir : order) {
    auto cores = policies[dir];
    std::sort(cores.begin(), cores.end());
    cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
    if (cores.empty()) continue;
    // Per-core directories of one policy (older kernels) name the same cores: keep one.
    bool seen = false;
    for (const auto& c : d.clusters) seen = seen || c.cores == cores;
    if (!seen) d.clusters.push_back({cores, dir});
  }
  std::sort(d.clusters.begin(), d.clusters.end(),
            [](const cpu_cluster& a, const cpu_cluster& b) { return a.cores.front() < b.cores.front(); });

  d.emc = find_emc(root, info);
  d.fan_pwm = find_fan(root);
  return d;
}

}  // namespace jetperf::platform
