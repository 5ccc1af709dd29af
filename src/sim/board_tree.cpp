#include <jetperf/sim/board_tree.hpp>

#include <filesystem>
#include <optional>
#include <sstream>

#include <jetperf/platform/engine_clocks.hpp>

#include "file_io.hpp"
#include "proc_stat_text.hpp"

namespace fs = std::filesystem;

namespace jetperf::sim {
namespace {

// What a file is, which decides whether a refresh may overwrite it.
enum class kind { fact, setting, live };

class tree {
 public:
  tree(std::string root, bool reset) : root_(std::move(root)), reset_(reset) {}
  std::string host(const std::string& board_path) const { return root_ + board_path; }
  void put(const std::string& board_path, const std::string& value, kind k = kind::fact) const {
    const std::string h = host(board_path);
    if (k != kind::fact && !reset_ && fs::exists(h)) return;
    detail::write_atomic(h, value);
  }
  void link(const std::string& link_path, const std::string& target_path) const {
    detail::make_symlink(host(target_path), host(link_path));
  }

 private:
  std::string root_;
  bool reset_;
};

std::string join(const std::vector<long long>& v, const char* sep) {
  std::ostringstream o;
  for (size_t i = 0; i < v.size(); ++i) o << (i ? sep : "") << v[i];
  return o.str();
}

std::string nul_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += i + '\0';
  return s;
}

void write_identity(const tree& t, const board_profile& p) {
  // /proc/device-tree is a link to the firmware device tree, as on the boards.
  const std::string dt = "/sys/firmware/devicetree/base";
  t.put(dt + "/model", p.model + '\0');
  t.put(dt + "/compatible", nul_list(p.compatible));
  t.put(dt + "/serial-number", std::string("1423120012345") + '\0');
  t.link("/proc/device-tree", dt);
  std::string release = p.release_line + "\n";
  if (p.l4t_major >= 36) release += "# KERNEL_VARIANT: oot\n";
  t.put("/etc/nv_tegra_release", release);
}

void write_cpus(const tree& t, const board_profile& p) {
  const std::string cpu = "/sys/devices/system/cpu";
  const int n = p.core_count();
  const std::string all = "0-" + std::to_string(n - 1);
  t.put(cpu + "/present", all + "\n");
  t.put(cpu + "/possible", all + "\n");
  // The board's CPU time: the rail simulator accumulates the workload's load into it.
  t.put("/proc/stat", detail::proc_stat_text(std::vector<detail::core_jiffies>(static_cast<size_t>(n))), kind::live);
  const bool t186_or_t210 = p.soc == "tegra186" || p.soc == "tegra210";
  for (const auto& c : p.clusters) {
    const std::string policy = cpu + "/cpufreq/policy" + std::to_string(c.cores.front());
    std::string related;
    for (int core : c.cores) related += (related.empty() ? "" : " ") + std::to_string(core);
    t.put(policy + "/related_cpus", related + "\n");
    t.put(policy + "/affected_cpus", related + "\n");
    t.put(policy + "/scaling_available_frequencies", join(c.freqs_khz, " ") + " \n");
    t.put(policy + "/scaling_available_governors", "interactive conservative ondemand userspace powersave performance schedutil \n");
    t.put(policy + "/scaling_driver", p.soc + "_cpufreq\n");
    t.put(policy + "/cpuinfo_min_freq", std::to_string(c.freqs_khz.front()) + "\n");
    t.put(policy + "/cpuinfo_max_freq", std::to_string(c.freqs_khz.back()) + "\n");
    t.put(policy + "/cpuinfo_transition_latency", "500000\n");
    t.put(policy + "/scaling_governor", p.cpu_governor + "\n", kind::setting);
    t.put(policy + "/scaling_min_freq", std::to_string(c.freqs_khz.front()) + "\n", kind::setting);
    t.put(policy + "/scaling_max_freq", std::to_string(c.freqs_khz.back()) + "\n", kind::setting);
    t.put(policy + "/scaling_cur_freq", std::to_string(c.freqs_khz.front()) + "\n", kind::live);
    t.put(policy + "/cpuinfo_cur_freq", std::to_string(c.freqs_khz.front()) + "\n", kind::live);
    for (int core : c.cores) {
      const std::string dir = cpu + "/cpu" + std::to_string(core);
      t.put(dir + "/online", "1\n", kind::setting);
      t.link(dir + "/cpufreq", policy);
      t.put(dir + "/cpuidle/state0/name", std::string(t186_or_t210 ? "C1" : "WFI") + "\n");
      t.put(dir + "/cpuidle/state0/disable", "0\n", kind::setting);
      t.put(dir + "/cpuidle/state1/name", "c7\n");
      t.put(dir + "/cpuidle/state1/disable", "0\n", kind::setting);
    }
  }
  t.put(cpu + "/online", all + "\n", kind::live);
  t.put(cpu + "/offline", "\n", kind::live);
}

void write_nvgpu_device(const tree& t, const board_profile& p) {
  const std::string& dev = p.gpu_device_dir;
  t.put(dev + "/of_node/name", p.gpu_of_node_name + '\0');
  t.put(dev + "/modalias", p.gpu_compatible + "\n");
  t.put(dev + "/load", "0\n", kind::live);
  t.put(dev + "/railgate_enable", "1\n", kind::setting);
  if (p.enable_3d_scaling) t.put(dev + "/enable_3d_scaling", "1\n", kind::setting);
  t.put(dev + "/power/control", "auto\n", kind::setting);
  t.put(dev + "/is_railgated", "yes\n", kind::live);
  t.put(dev + "/gpu_powered_on", "0\n", kind::live);
  t.put(dev + "/freq_request", std::to_string(p.gpu_freqs_hz.front()) + "\n", kind::live);
  t.put(dev + "/emc3d_ratio", "750\n");
  if (p.has_tpc_param || p.soc != "tegra210") t.put(dev + "/tpc_pg_mask", "0\n", kind::setting);
  if (p.has_fbp_param) t.put(dev + "/fbp_pg_mask", "0\n", kind::setting);
}

void write_devfreq(const tree& t, const board_profile& p, const std::string& df) {
  t.put(df + "/available_frequencies", join(p.gpu_freqs_hz, " ") + "\n");
  t.put(df + "/available_governors", p.gpu_governors + "\n");
  t.put(df + "/governor", "nvhost_podgov\n", kind::setting);
  t.put(df + "/polling_interval", "25\n", kind::setting);
  t.put(df + "/min_freq", std::to_string(p.gpu_freqs_hz.front()) + "\n", kind::setting);
  t.put(df + "/max_freq", std::to_string(p.gpu_freqs_hz.back()) + "\n", kind::setting);
  t.put(df + "/cur_freq", std::to_string(p.gpu_freqs_hz.front()) + "\n", kind::live);
  t.put(df + "/target_freq", std::to_string(p.gpu_freqs_hz.front()) + "\n", kind::live);
}

void write_gpu(const tree& t, const board_profile& p) {
  const std::string& df = p.gpu_devfreq_dir;
  if (p.nvgpu_sysfs) write_nvgpu_device(t, p);
  write_devfreq(t, p, df);
  // devfreq dir -> its device, and the class entry -> the devfreq dir (README 1.1 discovery).
  // Thor's entries are virtual devfreq devices with no device behind them (jtop #885).
  if (p.nvgpu_sysfs) t.link(df + "/device", p.gpu_device_dir);
  t.link("/sys/class/devfreq/" + p.gpu_class_name, df);
  for (const auto& name : p.gpu_extra_devfreq) {
    write_devfreq(t, p, "/sys/devices/virtual/devfreq/" + name);
    t.link("/sys/class/devfreq/" + name, "/sys/devices/virtual/devfreq/" + name);
  }
  for (const auto& clk : p.gpu_clock_debugfs) t.put(clk, "0\n", kind::live);
}

void write_emc(const tree& t, const board_profile& p) {
  if (p.emc_rate_path.empty()) return;
  const std::string top = std::to_string(p.emc_freqs_hz.back());
  const std::string low = std::to_string(p.emc_freqs_hz.front());
  // The EMC runs under the default mode's cap from the start, as the board boots in that mode:
  // the rail simulator's first update caps it too, but a daemon that read the rate before it (a
  // loaded host) saw xavier-nx's EMC at 1866 MHz in a mode capped at 1600.
  long long rate = p.emc_freqs_hz.back();
  for (const auto& m : p.modes)
    if (m.id == p.default_mode && m.emc_max_hz > 0) {
      for (const auto f : p.emc_freqs_hz)
        if (f <= m.emc_max_hz) rate = f;
      if (rate > m.emc_max_hz) rate = p.emc_freqs_hz.front();
    }
  t.put(p.emc_rate_path, std::to_string(rate) + "\n", kind::live);
  t.put(p.emc_min_path, low + "\n", kind::setting);
  t.put(p.emc_max_path, top + "\n", kind::setting);
  if (p.soc == "tegra210") {
    t.put("/sys/kernel/debug/clk/override.emc/clk_update_rate", top + "\n", kind::setting);
    t.put("/sys/kernel/debug/clk/override.emc/clk_state", "0\n", kind::setting);
  } else {
    t.put("/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked", "0\n", kind::setting);
  }
  t.put(p.emc_cap_path, "0\n", kind::setting);
  if (!p.emc_cap_path_alt.empty()) t.put(p.emc_cap_path_alt, "0\n", kind::setting);
  t.put("/sys/kernel/actmon_avg_activity/mc_all", "0\n", kind::live);
}

// The engines tegrastats prints as root, where it reads them (platform/engine_clocks.hpp): APE's
// rate, VIC running (Orin's VIC_FREQ), the rest gated (JetPack 7's "NVENC0 off ..."). A gated
// clock gets its enable count only: its rate was never printed, so none is made up.
void write_engines(const tree& t, const board_profile& p) {
  const auto put = [&](const std::string& clock, std::optional<long long> hz) {
    const auto files = platform::engine_clock_paths(p.soc, clock);
    if (!files.enable.empty()) t.put(files.enable, hz ? "1\n" : "0\n");
    if (hz) t.put(files.rate, std::to_string(*hz) + "\n");
  };
  put("ape", static_cast<long long>(p.ape_mhz) * 1'000'000);
  if (p.vic_field) put("vic", 729'000'000LL);
  for (const auto& e : p.engines_off) put(platform::engine_clock_name(e), std::nullopt);
}

void write_thermal(const tree& t, const board_profile& p) {
  for (size_t i = 0; i < p.zones.size(); ++i) {
    const auto& z = p.zones[i];
    const std::string dir = "/sys/devices/virtual/thermal/thermal_zone" + std::to_string(i);
    t.put(dir + "/type", z.type + "\n");
    t.put(dir + "/mode", "enabled\n");
    t.put(dir + "/policy", "step_wise\n");
    long long start = z.offline ? -256000 : z.fixed_trip ? 100000 : static_cast<long long>((p.power.ambient_c + 10 + z.offset_c) * 1000);
    t.put(dir + "/temp", std::to_string(start) + "\n", z.offline || z.fixed_trip ? kind::fact : kind::live);
    t.link("/sys/class/thermal/thermal_zone" + std::to_string(i), dir);
  }
}

std::vector<int> used_hwmon(const board_profile& p) {
  std::vector<int> used;
  if (p.hwmon_rails)
    for (const auto& c : p.ina) used.push_back(c.hwmon_index);
  for (const auto& c : p.ina238) used.push_back(c.hwmon_index);
  return used;
}

int free_hwmon(std::vector<int>& used) {
  for (int i = 0;; ++i) {
    bool taken = false;
    for (int u : used) taken = taken || u == i;
    if (!taken) {
      used.push_back(i);
      return i;
    }
  }
}

void write_rails(const tree& t, const board_profile& p, const std::string& root) {
  const std::string driver = p.hwmon_rails ? "ina3221" : "ina3221x";
  for (const auto& chip : p.ina) {
    t.put(chip.device_path + "/name", driver + "\n");
    t.link("/sys/bus/i2c/devices/" + chip.bus_addr, chip.device_path);
    t.link("/sys/bus/i2c/drivers/" + driver + "/" + chip.bus_addr, chip.device_path);
    const std::string dir = rail_dir(p, "", chip);
    if (p.hwmon_rails) {
      t.link("/sys/class/hwmon/hwmon" + std::to_string(chip.hwmon_index), dir);
      t.put(dir + "/name", driver + "\n");
      // The simulated chips' readings change every period of the chip's timing (the INA3221's
      // own: 3 channels x 16 samples x (204 + 204) us = 19.584 ms), which the real driver reports
      // rounded to a millisecond (20). Written from the chip's timing here, not left to the rail
      // simulator's first step: a daemon that read the file before that step (a loaded host) took
      // a profile file's 26.5 ms chip for a 20 ms one, and its sensor card found no clock.
      const auto period_us = p.timing_of(chip).period_us;
      t.put(dir + "/samples", "16\n", kind::setting);
      t.put(dir + "/update_interval", std::to_string((period_us + 500) / 1000) + "\n", kind::setting);
      for (int k = 1; k <= 3; ++k) {
        const auto& ch = chip.channels[k - 1];
        const std::string ks = std::to_string(k);
        t.put(dir + "/in" + ks + "_label", ch.label + "\n");
        t.put(dir + "/in" + ks + "_input", "0\n", kind::live);
        t.put(dir + "/in" + std::to_string(k + 3) + "_input", "0\n", kind::live);  // shunt uV
        t.put(dir + "/curr" + ks + "_input", "0\n", kind::live);
        t.put(dir + "/curr" + ks + "_max", "4000\n", kind::setting);
        t.put(dir + "/curr" + ks + "_crit", "5000\n", kind::setting);
        t.put(dir + "/curr" + ks + "_max_alarm", "0\n", kind::live);
        t.put(dir + "/curr" + ks + "_crit_alarm", "0\n", kind::live);
      }
      t.put(dir + "/in7_label", "sum of shunt voltages\n");
      t.put(dir + "/in7_input", "0\n", kind::live);
    } else {
      t.put(dir + "/name", driver + "\n");
      for (int k = 0; k < 3; ++k) {
        const auto& ch = chip.channels[k];
        const std::string ks = std::to_string(k);
        t.put(dir + "/rail_name_" + ks, ch.label + "\n");
        t.put(dir + "/in_power" + ks + "_input", "0\n", kind::live);
        t.put(dir + "/in_current" + ks + "_input", "0\n", kind::live);
        t.put(dir + "/in_voltage" + ks + "_input", "0\n", kind::live);
        t.put(dir + "/warn_current_limit_" + ks, "4000\n", kind::setting);
        t.put(dir + "/crit_current_limit_" + ks, "5000\n", kind::setting);
      }
    }
  }
  if (p.has_oc_param) {
    // The HWMON param of the NX conf names "<dev>/hwmon"; its node carries the OC limits.
    const std::string oc = p.oc_hwmon_dir + "/hwmon1";
    t.put(oc + "/name", "ina3221\n");
    t.put(oc + "/curr1_max", "3000\n", kind::setting);
    t.put(oc + "/curr1_crit", "5000\n", kind::setting);
  }
  (void)root;
}

// Thor's carrier monitor (Linux ina238 driver, jtop PR #900): no label, power1_input in uW.
void write_ina238(const tree& t, const board_profile& p) {
  for (const auto& chip : p.ina238) {
    t.put(chip.device_path + "/name", "ina238\n");
    t.link("/sys/bus/i2c/devices/" + chip.bus_addr, chip.device_path);
    t.link("/sys/bus/i2c/drivers/ina238/" + chip.bus_addr, chip.device_path);
    const std::string dir = ina238_dir(chip);
    t.link("/sys/class/hwmon/hwmon" + std::to_string(chip.hwmon_index), dir);
    t.put(dir + "/name", "ina238\n");
    for (const char* f : {"/in0_input", "/in1_input", "/curr1_input", "/power1_input"}) t.put(dir + f, "0\n", kind::live);
  }
  // USB-C PD sources: what the charger offers, which jetperf must not take for a reading.
  for (const auto& psy : p.ucsi_supplies) {
    const std::string dir = "/sys/class/power_supply/" + psy;
    t.put(dir + "/voltage_now", "20000000\n");
    t.put(dir + "/current_now", "5000000\n");
    t.put(dir + "/online", "1\n");
  }
}

void write_fan(const tree& t, const board_profile& p) {
  if (!p.fan_hwmon) {
    t.put("/sys/devices/pwm-fan/target_pwm", "0\n", kind::setting);
    t.put("/sys/devices/pwm-fan/rpm_measured", "0\n", kind::live);
    t.put("/sys/devices/pwm-fan/temp_control", "1\n", kind::setting);
    t.put("/sys/devices/pwm-fan/pwm_cap", "255\n");
    return;
  }
  auto used = used_hwmon(p);
  const int fan = free_hwmon(used), tach = free_hwmon(used);
  // pwmfan and its tachometer are separate hwmon nodes (README 5); tach path [unconfirmed].
  const std::string fdir = "/sys/devices/platform/pwm-fan/hwmon/hwmon" + std::to_string(fan);
  t.put(fdir + "/name", "pwmfan\n");
  t.put(fdir + "/pwm1", "0\n", kind::setting);
  t.put(fdir + "/pwm1_enable", "2\n", kind::setting);
  t.link("/sys/class/hwmon/hwmon" + std::to_string(fan), fdir);
  const std::string tdir = "/sys/devices/platform/39c0000.tachometer/hwmon/hwmon" + std::to_string(tach);
  t.put(tdir + "/name", "pwm_tach\n");
  t.put(tdir + "/rpm", "0\n", kind::live);
  t.link("/sys/class/hwmon/hwmon" + std::to_string(tach), tdir);
}

}  // namespace

std::string rail_dir(const board_profile& p, const std::string& root, const ina_chip& chip) {
  if (p.hwmon_rails) return root + chip.device_path + "/hwmon/hwmon" + std::to_string(chip.hwmon_index);
  return root + chip.device_path + "/iio:device" + std::to_string(chip.hwmon_index);
}

std::string ina238_dir(const ina238_chip& chip) {
  return chip.device_path + "/hwmon/hwmon" + std::to_string(chip.hwmon_index);
}

std::string cpu_range_list(const std::vector<bool>& online) {
  std::string out;
  size_t i = 0;
  while (i < online.size()) {
    if (!online[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < online.size() && online[j + 1]) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(i) + (j > i ? "-" + std::to_string(j) : "");
    i = j + 1;
  }
  return out;
}

bool write_board_tree(const board_profile& p, const std::string& root, bool reset) {
  const bool fresh = reset || !fs::exists(root + "/etc/nv_tegra_release");
  tree t(root, fresh);
  for (const auto& [link, target] : p.symlinks) t.link(link, target);
  write_identity(t, p);
  write_cpus(t, p);
  write_gpu(t, p);
  write_emc(t, p);
  write_engines(t, p);
  write_thermal(t, p);
  write_rails(t, p, root);
  write_ina238(t, p);
  write_fan(t, p);
  return fresh;
}

}  // namespace jetperf::sim
