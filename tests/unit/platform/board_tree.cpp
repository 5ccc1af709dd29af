#include "board_tree.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <sstream>

#include <support/temp_dir.hpp>

namespace fs = std::filesystem;

namespace jetperf::test {

namespace {

void put(const std::string& root, const std::string& path, const std::string& text) {
  write_file(root + path, text + "\n");
}

void put_raw(const std::string& root, const std::string& path, const std::string& bytes) {
  write_file(root + path, bytes);
}

void link(const std::string& root, const std::string& path, const std::string& target) {
  fs::create_directories(fs::path(root + path).parent_path());
  fs::create_symlink(target, root + path);
}

std::string join(const std::vector<long long>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

void cpus(const std::string& root, int n, int per_policy, const std::vector<long long>& khz) {
  for (int p = 0; p < n; p += per_policy) {
    const std::string dir = "/sys/devices/system/cpu/cpufreq/policy" + std::to_string(p);
    std::string related;
    for (int c = p; c < p + per_policy; ++c) related += (related.empty() ? "" : " ") + std::to_string(c);
    put(root, dir + "/related_cpus", related);
    put(root, dir + "/scaling_available_frequencies", join(khz));
    put(root, dir + "/scaling_min_freq", std::to_string(khz.front()));
    put(root, dir + "/scaling_max_freq", std::to_string(khz.back()));
    put(root, dir + "/scaling_cur_freq", std::to_string(khz.back()));
    put(root, dir + "/scaling_governor", "schedutil");
    for (int c = p; c < p + per_policy; ++c)
      link(root, "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/cpufreq", "../cpufreq/policy" + std::to_string(p));
  }
  for (int c = 1; c < n; ++c) put(root, "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/online", "1");
  put(root, "/sys/devices/system/cpu/online", "0-" + std::to_string(n - 1));
}

void gpu(const std::string& root, const std::string& device_dir, const std::string& freq_rel, const std::string& of_name,
         const std::string& class_name, bool absolute_link, const std::vector<long long>& hz) {
  const std::string freq = device_dir + "/" + freq_rel;
  put(root, freq + "/available_frequencies", join(hz));
  put(root, freq + "/min_freq", std::to_string(hz.front()));
  put(root, freq + "/max_freq", std::to_string(hz.back()));
  put(root, freq + "/cur_freq", std::to_string(hz.front()));
  put(root, freq + "/governor", "nvhost_podgov");
  put_raw(root, device_dir + "/of_node/name", of_name + std::string(1, '\0'));
  // <freq>/device -> the GPU device directory, as the devfreq core links it.
  std::string up;
  for (char ch : freq_rel)
    if (ch == '/') up += "../";
  link(root, freq + "/device", up + "..");
  link(root, "/sys/class/devfreq/" + class_name, absolute_link ? freq : "../../" + freq.substr(5));
  // A devfreq node that is not the GPU, to prove the filter.
  const std::string vic = "/sys/devices/15340000.vic/devfreq/15340000.vic";
  put(root, vic + "/available_frequencies", "115200000 230400000");
  put_raw(root, "/sys/devices/15340000.vic/of_node/name", std::string("vic") + '\0');
  link(root, vic + "/device", "../..");
  link(root, "/sys/class/devfreq/15340000.vic", "../../devices/15340000.vic/devfreq/15340000.vic");
}

void bpmp_emc(const std::string& root, bool with_possible) {
  const std::string d = "/sys/kernel/debug/bpmp/debug/clk/emc";
  put(root, d + "/rate", "3199000000");
  put(root, d + "/min_rate", "204000000");
  put(root, d + "/max_rate", "3199000000");
  put(root, d + "/mrq_rate_locked", "0");
  if (with_possible) put(root, d + "/possible_rates", "204000000 665600000 2133000000 3199000000");
}

const char* orin_conf = R"(# test conf in NVIDIA's grammar
< PARAM TYPE=FILE NAME=CPU_ONLINE >
CORE_0 /sys/devices/system/cpu/cpu0/online
CORE_4 /sys/devices/system/cpu/cpu4/online
< PARAM TYPE=FILE NAME=TPC_POWER_GATING >
TPC_PG_MASK /sys/devices/gpu.0/tpc_pg_mask
<PARAM TYPE=CLOCK NAME=GPU >
MAX_FREQ /sys/devices/17000000.ga10b/devfreq_dev/max_freq
< POWER_MODEL ID=0 NAME=MAXN >
CPU_ONLINE CORE_4 1
TPC_POWER_GATING TPC_PG_MASK 0
GPU MAX_FREQ -1
< POWER_MODEL ID=1 NAME=MODE_15W >
CPU_ONLINE CORE_4 0
TPC_POWER_GATING TPC_PG_MASK 248
GPU MAX_FREQ 420750000
< POWER_MODEL ID=2 NAME=MODE_30W >
CPU_ONLINE CORE_4 1
TPC_POWER_GATING TPC_PG_MASK 240
GPU MAX_FREQ 624750000
< POWER_MODEL ID=3 NAME=MODE_50W >
CPU_ONLINE CORE_4 1
TPC_POWER_GATING TPC_PG_MASK 240
GPU MAX_FREQ 828750000
< PM_CONFIG DEFAULT=2 >
)";

}  // namespace

void make_board_tree(const std::string& root, board_profile profile) {
  const std::vector<long long> orin_gpu{114750000, 216750000, 318750000, 420750000, 522750000, 624750000, 726750000,
                                        828750000, 930750000, 1032750000, 1134750000, 1236750000, 1300500000};
  switch (profile) {
    case board_profile::orin_r35:
    case board_profile::orin_r36: {
      const bool r36 = profile == board_profile::orin_r36;
      put_raw(root, "/proc/device-tree/model", std::string("NVIDIA Jetson AGX Orin Developer Kit") + '\0');
      put_raw(root, "/proc/device-tree/compatible",
              std::string("nvidia,p3737-0000+p3701-0000") + '\0' + "nvidia,p3701-0000" + '\0' + "nvidia,tegra234" + '\0');
      put(root, "/etc/nv_tegra_release",
          r36 ? "# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025"
              : "# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023");
      if (r36)
        gpu(root, "/sys/devices/platform/17000000.gpu", "devfreq_dev", "gpu", "17000000.gpu", true, orin_gpu);
      else
        gpu(root, "/sys/devices/17000000.ga10b", "devfreq_dev", "ga10b", "17000000.ga10b", false, orin_gpu);
      cpus(root, 12, 4, {115200, 729600, 1497600, 2201600});
      bpmp_emc(root, !r36);
      put(root, r36 ? "/sys/kernel/nvpmodel_clk_cap/emc" : "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "0");
      put(root, "/sys/class/hwmon/hwmon0/name", "ina3221");
      put(root, "/sys/class/hwmon/hwmon1/name", "pwmfan");
      put(root, "/sys/class/hwmon/hwmon1/pwm1", "120");
      put(root, "/etc/nvpmodel.conf", orin_conf);
      put(root, "/proc/meminfo", "MemTotal:       64335836 kB\nMemFree:        60000000 kB");
      break;
    }
    case board_profile::xavier_r32: {
      put_raw(root, "/proc/device-tree/model", std::string("Jetson-AGX") + '\0');
      put_raw(root, "/proc/device-tree/compatible",
              std::string("nvidia,p2972-0000") + '\0' + "nvidia,galen" + '\0' + "nvidia,tegra194" + '\0');
      put(root, "/etc/nv_tegra_release", "# R32 (release), REVISION: 5.1, GCID: 27362550, BOARD: t186ref, EABI: aarch64, DATE: Wed May 19 18:16:00 UTC 2021");
      gpu(root, "/sys/devices/17000000.gv11b", "devfreq/17000000.gv11b", "gv11b", "17000000.gv11b", false,
          {114750000, 216750000, 318750000, 420750000, 522750000, 624750000, 675750000, 828750000, 905250000,
           1032750000, 1198500000, 1236750000, 1338750000, 1377000000});
      cpus(root, 8, 2, {115200, 1190400, 2265600});
      bpmp_emc(root, false);
      put(root, "/sys/kernel/debug/bpmp/debug/clk/emc/rate", "2133000000");
      put(root, "/sys/kernel/debug/bpmp/debug/clk/emc/max_rate", "2133000000");
      put(root, "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "0");
      put(root, "/sys/devices/pwm-fan/target_pwm", "0");
      break;
    }
    case board_profile::nano_r32: {
      put_raw(root, "/proc/device-tree/model", std::string("NVIDIA Jetson Nano Developer Kit") + '\0');
      put_raw(root, "/proc/device-tree/compatible",
              std::string("nvidia,p3450-0000") + '\0' + "nvidia,jetson-nano" + '\0' + "nvidia,tegra210" + '\0');
      put(root, "/etc/nv_tegra_release", "# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t210ref, EABI: aarch64, DATE: Sat Feb 19 17:05:08 UTC 2022");
      gpu(root, "/sys/devices/57000000.gpu", "devfreq/57000000.gpu", "gpu", "57000000.gpu", false,
          {76800000, 153600000, 230400000, 307200000, 384000000, 460800000, 537600000, 614400000, 691200000,
           768000000, 844800000, 921600000, 998400000});
      cpus(root, 4, 4, {102000, 918000, 1479000});
      put(root, "/sys/kernel/debug/clk/override.emc/clk_rate", "1600000000");
      put(root, "/sys/kernel/debug/clk/override.emc/clk_update_rate", "0");
      put(root, "/sys/kernel/debug/clk/override.emc/clk_state", "0");
      put(root, "/sys/kernel/debug/tegra_bwmgr/emc_min_rate", "204000000");
      put(root, "/sys/kernel/debug/tegra_bwmgr/emc_max_rate", "1600000000");
      put(root, "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "0");
      put(root, "/sys/devices/pwm-fan/target_pwm", "0");
      break;
    }
  }
}

std::string make_fake_nvpmodel(const std::string& dir, const std::vector<std::string>& names, int mode,
                               const std::vector<int>& reboot_ids) {
  std::string cases;
  for (size_t i = 0; i < names.size(); ++i) cases += "  " + std::to_string(i) + ") echo \"NV Power Mode: " + names[i] + "\";;\n";
  std::string reboot_case;
  for (int id : reboot_ids) reboot_case += (reboot_case.empty() ? "" : "|") + std::to_string(id);
  if (reboot_case.empty()) reboot_case = "none";
  const std::string script = "#!/bin/sh\n"
                             "d=\"" + dir + "\"\n"
                             "echo \"$*\" >> \"$d/calls\"\n"
                             "case \"$1\" in\n"
                             "-q) m=$(cat \"$d/mode\")\n"
                             "  case \"$m\" in\n" + cases +
                             "  esac\n"
                             "  echo \"$m\";;\n"
                             "-m)\n"
                             "  if [ -f \"$d/error\" ]; then cat \"$d/error\"; exit 0; fi\n"
                             "  case \"$2\" in\n"
                             "  " + reboot_case + ")\n"
                             "    printf 'NVPM WARN: Reboot required for changing to this power mode: %s\\n' \"$2\"\n"
                             "    printf 'NVPM WARN: DO YOU WANT TO REBOOT NOW? enter YES/yes to confirm:\\n'\n"
                             "    read ans\n"
                             "    if [ \"$ans\" = YES ]; then echo \"$2\" > \"$d/mode\"; echo \"stdin:$ans\" >> \"$d/calls\"; fi\n"
                             "    exit 0;;\n"
                             "  esac\n"
                             "  echo \"$2\" > \"$d/mode\";;\n"
                             "*) echo \"unknown option $1\" >&2; exit 1;;\n"
                             "esac\n";
  const std::string path = dir + "/nvpmodel";
  write_file(path, script);
  ::chmod(path.c_str(), 0755);
  write_file(dir + "/mode", std::to_string(mode) + "\n");
  return path;
}

std::string dump_tree(const std::string& root) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_symlink() || !it->is_regular_file()) continue;
    files[it->path().string().substr(root.size())] = read_file(it->path().string());
  }
  std::ostringstream out;
  for (const auto& f : files) out << f.first << "=" << f.second << "\n";
  return out.str();
}

}  // namespace jetperf::test
