// The eight simulated boards. Facts (paths, names, mode tables, frequency steps) come from
// shared/jetson/README.md and its fixtures; where the README says [unconfirmed] the value here is
// a plausible pick and carries the same mark. The JetPack 7 boards (orin-agx-jp7, thor) take
// their facts from the recorded layouts tests/fixtures/layouts/{orin-agx,thor}_r39.layout and
// docs/boards.md; their [assumed] values are listed there. Power constants are model calibration, not facts:
// they are tuned so that idle and full-load totals land where public measurements put them.
#include <jetperf/sim/board_profile.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::sim {
namespace {

std::vector<long long> steps(long long first, long long step, long long last) {
  std::vector<long long> v;
  for (long long f = first; f <= last; f += step) v.push_back(f);
  return v;
}

std::vector<int> range(int first, int last) {
  std::vector<int> v;
  for (int i = first; i <= last; ++i) v.push_back(i);
  return v;
}

mode_spec mode(int id, const std::string& name, std::vector<int> online, long long cpu_min,
               long long cpu_max, long long gpu_min, long long gpu_max, long long emc_max) {
  mode_spec m;
  m.id = id;
  m.name = name;
  m.online = std::move(online);
  m.cpu_min_khz = cpu_min;
  m.cpu_max_khz = cpu_max;
  m.gpu_min_hz = gpu_min;
  m.gpu_max_hz = gpu_max;
  m.emc_max_hz = emc_max;
  return m;
}

// Carmel / A78AE share the 76.8 MHz step table (Xavier: index id 120932591; Orin: README 1.3).
std::vector<long long> carmel_a78_table(long long top) {
  auto v = steps(115200, 76800, top);
  if (v.back() != top) v.push_back(top);
  return v;
}

board_profile tx2() {
  board_profile p;
  p.name = "tx2";
  p.description = "Jetson TX2 (t186, gp10b), L4T r32.7.x, ina3221x IIO rails";
  p.soc = "tegra186";
  p.model = "quill";
  p.compatible = {"nvidia,p2771-0000", "nvidia,tegra186"};
  p.release_line =
      "# R32 (release), REVISION: 7.4, GCID: 33514132, BOARD: t186ref, EABI: aarch64, DATE: Fri Jun  9 04:27:24 UTC 2023";
  p.l4t_major = 32;
  p.nvpmodel_conf_name = "nvpmodel_t186.conf";
  // TX2 clusters: A57 = cpu0,3,4,5 and Denver = cpu1,2 (README 3); 345.6..2035.2 MHz (jetson_clocks fixture).
  const std::vector<long long> tx2_cpu = {345600,  499200,  652800,  806400,  960000,  1113600,
                                          1267200, 1420800, 1574400, 1728000, 1881600, 2035200};
  p.clusters = {{"CPU_A57", {0, 3, 4, 5}, tx2_cpu}, {"CPU_DENVER", {1, 2}, tx2_cpu}};
  p.gpu_device_dir = "/sys/devices/17000000.gp10b";
  p.gpu_devfreq_dir = "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b";
  p.gpu_devfreq_dir_alt = "/sys/devices/17000000.gp10b/devfreq/devfreq0";
  p.gpu_class_name = "17000000.gp10b";
  p.gpu_of_node_name = "gp10b";
  p.gpu_pm_dir = "/sys/devices/gpu.0";
  p.gpu_compatible = "of:Ngp10bT<NULL>Cnvidia,gp10b";
  p.symlinks = {{"/sys/devices/gpu.0", "/sys/devices/17000000.gp10b"}};
  // Min 114.75 MHz and max 1300.5 MHz and the 1134.75 MHz step are confirmed; the steps between
  // are [unconfirmed] (the gp10b/ga10b 102 MHz ladder).
  p.gpu_freqs_hz = {114750000, 216750000, 318750000, 420750000,  522750000,  624750000, 726750000,
                    828750000, 930750000, 1032750000, 1134750000, 1236750000, 1300500000};
  p.gpu_clock_debugfs = {"/sys/kernel/debug/bpmp/debug/clk/gpcclk/rate"};
  p.emc_rate_path = "/sys/kernel/debug/bpmp/debug/clk/emc/rate";
  p.emc_min_path = "/sys/kernel/debug/bpmp/debug/clk/emc/min_rate";
  p.emc_max_path = "/sys/kernel/debug/bpmp/debug/clk/emc/max_rate";
  p.emc_cap_path = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  p.emc_cap_path_alt = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  // EMC ladder [unconfirmed] except the 1866 MHz top (README 2) and the 1331.2/1600 caps.
  p.emc_freqs_hz = {40800000,  68000000,  102000000,  204000000,  408000000,  665600000,
                    800000000, 1062400000, 1331200000, 1600000000, 1866000000};
  // Zone order as the r32 TX2 tegrastats line prints them.
  p.zones = {{"PLL", 0.5},    {"MCPU", 1.0},  {"PMIC", 0, false, true}, {"Tboard", -1.5},
             {"GPU", -0.5},   {"BCPU", 1.0},  {"thermal", 0.4},         {"Tdiode", -0.25}};
  // Two chips: 0x40 GPU/SOC/WIFI, 0x41 IN/CPU/DDR (tegrastats order); bus path [unconfirmed].
  p.ina = {{"0-0040", "/sys/devices/3160000.i2c/i2c-0/0-0040", 0,
            {{"VDD_SYS_GPU", rail_kind::gpu}, {"VDD_SYS_SOC", rail_kind::soc}, {"VDD_4V0_WIFI", rail_kind::wifi}}},
           {"0-0041", "/sys/devices/3160000.i2c/i2c-0/0-0041", 1,
            {{"VDD_IN", rail_kind::input}, {"VDD_SYS_CPU", rail_kind::cpu}, {"VDD_SYS_DDR", rail_kind::ddr}}}};
  p.modes = {mode(0, "MAXN", range(0, 5), 0, -1, 0, -1, 0),
             mode(1, "MAXQ", {0, 3, 4, 5}, 0, 1200000, 0, 850000000, 1331200000),
             mode(2, "MAXP_CORE_ALL", range(0, 5), 0, 1400000, 0, 1120000000, 1600000000),
             mode(3, "MAXP_CORE_ARM", {0, 3, 4, 5}, 0, 2000000, 0, 1120000000, 1600000000),
             // r28 file's mode 4 (1 A57 + 1 Denver); its caps are [unconfirmed].
             mode(4, "MAXP_CORE_DENVER", {0, 1}, 0, 2000000, 0, 1120000000, 1600000000)};
  p.default_mode = 3;
  p.ram_total_mb = 7852;
  p.swap_total_mb = 0;
  p.mts = true;
  p.ape_mhz = 150;
  auto& c = p.power;
  c.cpu_core_static_mw = 25;
  c.cpu_core_max_mw = 1100;
  c.gpu_static_mw = 120;
  c.gpu_max_mw = 9000;
  c.gpu_tpcs = 2;
  c.soc_static_mw = 520;
  c.ddr_static_mw = 480;
  c.emc_max_mw = 900;
  c.wifi_mw = 600;
  c.input_base_mw = 900;
  c.ambient_c = 33;
  c.thermal_c_per_w = 2.2;
  return p;
}

board_profile nano() {
  board_profile p;
  p.name = "nano";
  p.description = "Jetson Nano 4GB devkit (t210, gm20b), L4T r32.7.x, ina3221x IIO rails";
  p.soc = "tegra210";
  p.model = "NVIDIA Jetson Nano Developer Kit";
  p.compatible = {"nvidia,p3449-0000-b00+p3448-0000-b00", "nvidia,jetson-nano", "nvidia,tegra210"};
  p.release_line =
      "# R32 (release), REVISION: 7.4, GCID: 33514132, BOARD: t210ref, EABI: aarch64, DATE: Fri Jun  9 04:25:08 UTC 2023";
  p.l4t_major = 32;
  p.nvpmodel_conf_name = "nvpmodel_t210_jetson-nano.conf";
  // Nano A57 table (max 1479 MHz, 918 MHz in 5W: README 3); intermediate steps [unconfirmed].
  p.clusters = {{"CPU_A57", {0, 1, 2, 3},
                 {102000, 204000, 307200, 403200, 518400, 614400, 710400, 825600, 918000, 1036800,
                  1132800, 1224000, 1326000, 1428000, 1479000}}};
  p.gpu_device_dir = "/sys/devices/gpu.0";
  p.gpu_devfreq_dir = "/sys/devices/gpu.0/devfreq/57000000.gpu";
  p.gpu_class_name = "57000000.gpu";
  p.gpu_of_node_name = "gpu";
  p.gpu_pm_dir = "/sys/devices/gpu.0";
  p.gpu_compatible = "of:NgpuT<NULL>Cnvidia,tegra210-gm20bCnvidia,gm20b";
  // Same device under its unit-address name (gh Qengineering/Jover#3).
  p.symlinks = {{"/sys/devices/57000000.gpu", "/sys/devices/gpu.0"}};
  p.gpu_freqs_hz = {76800000,  153600000, 230400000, 307200000, 384000000, 460800000, 537600000,
                    614400000, 691200000, 768000000, 844800000, 921600000, 998400000};
  p.gpu_clock_debugfs = {"/sys/kernel/debug/clk/gpcclk/clk_rate"};
  p.emc_rate_path = "/sys/kernel/debug/clk/override.emc/clk_rate";
  p.emc_min_path = "/sys/kernel/debug/tegra_bwmgr/emc_min_rate";
  p.emc_max_path = "/sys/kernel/debug/tegra_bwmgr/emc_max_rate";
  p.emc_cap_path = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  // Ladder [unconfirmed] except the 1600 MHz top.
  p.emc_freqs_hz = {40800000,  68000000,  102000000, 204000000,  408000000,
                    665600000, 800000000, 1065600000, 1331200000, 1600000000};
  p.zones = {{"PLL", -3.0}, {"CPU", 1.0}, {"PMIC", 0, false, true}, {"GPU", -0.5}, {"AO", 9.0}, {"thermal", 0.0}};
  p.ina = {{"6-0040", "/sys/devices/7000c400.i2c/i2c-6/6-0040", 0,
            {{"POM_5V_IN", rail_kind::input}, {"POM_5V_GPU", rail_kind::gpu}, {"POM_5V_CPU", rail_kind::cpu}}}};
  p.modes = {mode(0, "MAXN", range(0, 3), 0, -1, 0, -1, 0),
             mode(1, "5W", {0, 1}, 0, 918000, 0, 640000000, 1600000000)};
  p.default_mode = 0;
  p.ram_total_mb = 3964;
  p.swap_total_mb = 2048;
  p.iram = true;
  p.ape_mhz = 25;
  auto& c = p.power;
  c.cpu_core_static_mw = 30;
  c.cpu_core_max_mw = 800;
  c.gpu_static_mw = 60;
  c.gpu_max_mw = 4500;
  c.gpu_tpcs = 1;
  c.soc_static_mw = 450;
  c.ddr_static_mw = 250;
  c.emc_max_mw = 600;
  c.input_base_mw = 1200;
  c.ambient_c = 20;
  c.thermal_c_per_w = 2.0;
  return p;
}

board_profile xavier_agx() {
  board_profile p;
  p.name = "xavier-agx";
  p.description = "Jetson AGX Xavier (t194, gv11b), L4T r32.7.x, ina3221x IIO rails, nvpmodel fan modes";
  p.soc = "tegra194";
  p.model = "Jetson-AGX";
  p.compatible = {"nvidia,p2972-0000", "nvidia,galen", "nvidia,tegra194"};
  p.release_line =
      "# R32 (release), REVISION: 7.4, GCID: 33514132, BOARD: t186ref, EABI: aarch64, DATE: Fri Jun  9 04:25:08 UTC 2023";
  p.l4t_major = 32;
  p.nvpmodel_conf_name = "nvpmodel_t194.conf";
  auto t = carmel_a78_table(2265600);
  p.clusters = {{"CPU_DENVER_0", {0, 1}, t}, {"CPU_DENVER_1", {2, 3}, t},
                {"CPU_DENVER_2", {4, 5}, t}, {"CPU_DENVER_3", {6, 7}, t}};
  p.gpu_device_dir = "/sys/devices/17000000.gv11b";
  p.gpu_devfreq_dir = "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b";
  p.gpu_devfreq_dir_alt = "/sys/devices/17000000.gv11b/devfreq_dev";
  p.gpu_class_name = "17000000.gv11b";
  p.gpu_of_node_name = "gv11b";
  p.gpu_pm_dir = "/sys/devices/gpu.0";
  p.gpu_compatible = "of:Ngv11bT<NULL>Cnvidia,gv11b";
  p.symlinks = {{"/sys/devices/gpu.0", "/sys/devices/17000000.gv11b"}};
  p.gpu_freqs_hz = {114750000, 216750000,  318750000,  420750000,  522750000,  624750000,  675750000,
                    828750000, 905250000, 1032750000, 1198500000, 1236750000, 1338750000, 1377000000};
  p.gpu_clock_debugfs = {"/sys/kernel/debug/bpmp/debug/clk/gpcclk/rate"};
  p.emc_rate_path = "/sys/kernel/debug/bpmp/debug/clk/emc/rate";
  p.emc_min_path = "/sys/kernel/debug/bpmp/debug/clk/emc/min_rate";
  p.emc_max_path = "/sys/kernel/debug/bpmp/debug/clk/emc/max_rate";
  p.emc_cap_path = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  p.emc_cap_path_alt = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  // Ladder [unconfirmed] except the 2133 MHz top and the mode caps.
  p.emc_freqs_hz = {204000000,  408000000,  665600000,  800000000, 1065600000,
                    1331200000, 1600000000, 1866000000, 2133000000};
  p.zones = {{"AO", -1.0}, {"GPU", -0.5}, {"Tboard", -0.5}, {"Tdiode", 0.5},
             {"AUX", -0.5}, {"CPU", 0.5}, {"thermal", -0.2}, {"PMIC", 0, false, true}};
  // 0x40 = GPU/CPU/SOC, 0x41 = CV/VDDRQ/SYS5V (README 6.2).
  p.ina = {{"1-0040", "/sys/devices/3160000.i2c/i2c-1/1-0040", 0,
            {{"GPU", rail_kind::gpu}, {"CPU", rail_kind::cpu}, {"SOC", rail_kind::soc}}},
           {"1-0041", "/sys/devices/3160000.i2c/i2c-1/1-0041", 1,
            {{"CV", rail_kind::cv}, {"VDDRQ", rail_kind::ddr}, {"SYS5V", rail_kind::sys5v}}}};
  p.fan_modes = {"quiet", "cool"};
  p.default_fan_mode = "quiet";  // stock default [unconfirmed]; the MLPerf file sets cool
  p.has_tpc_param = true;
  auto m = [](int id, const char* name, std::vector<int> on, long long cpu_max, long long gpu_max,
              long long emc, const char* tpc) {
    auto x = mode(id, name, std::move(on), 1200000, cpu_max, 318750000, gpu_max, emc);
    x.tpc_pg_mask = tpc;
    return x;
  };
  p.modes = {m(0, "MAXN", range(0, 7), -1, -1, 0, "0"),
             m(1, "MODE_10W", {0, 1}, 1200000, 520000000, 1065600000, "5"),
             m(2, "MODE_15W", range(0, 3), 1200000, 670000000, 1331200000, "0"),
             m(3, "MODE_30W_ALL", range(0, 7), 1200000, 900000000, 1600000000, "0"),
             m(4, "MODE_30W_6CORE", range(0, 5), 1450000, 900000000, 1600000000, "0"),
             m(5, "MODE_30W_4CORE", range(0, 3), 1780000, 900000000, 1600000000, "0"),
             m(6, "MODE_30W_2CORE", {0, 1}, 2100000, 900000000, 1600000000, "0"),
             m(7, "MODE_15W_DESKTOP", range(0, 3), 2188800, 670000000, 1331200000, "0")};
  p.default_mode = 2;
  p.ram_total_mb = 15692;
  p.swap_total_mb = 8192;
  p.mts = true;
  p.ape_mhz = 150;
  auto& c = p.power;
  c.cpu_core_static_mw = 40;
  c.cpu_core_max_mw = 1300;
  c.gpu_static_mw = 300;
  c.gpu_max_mw = 20000;
  c.gpu_tpcs = 4;
  c.soc_static_mw = 2800;
  c.ddr_static_mw = 250;
  c.emc_max_mw = 1500;
  c.cv_static_mw = 0;
  c.sys5v_mw = 3200;
  c.input_base_mw = 0;
  c.ambient_c = 25;
  c.thermal_c_per_w = 0.8;
  return p;
}

board_profile xavier_nx() {
  board_profile p;
  p.name = "xavier-nx";
  p.description = "Jetson Xavier NX devkit (t194 p3668, gv11b), L4T r32.7.x, ina3221x IIO rails";
  p.soc = "tegra194";
  p.model = "NVIDIA Jetson Xavier NX Developer Kit";
  p.compatible = {"nvidia,p3509-0000+p3668-0001", "nvidia,tegra194"};
  p.release_line =
      "# R32 (release), REVISION: 7.4, GCID: 33514132, BOARD: t186ref, EABI: aarch64, DATE: Fri Jun  9 04:25:08 UTC 2023";
  p.l4t_major = 32;
  p.nvpmodel_conf_name = "nvpmodel_t194_p3668.conf";
  auto t = carmel_a78_table(1907200);
  p.clusters = {{"CPU_DENVER_0", {0, 1}, t}, {"CPU_DENVER_1", {2, 3}, t}, {"CPU_DENVER_2", {4, 5}, t}};
  p.gpu_device_dir = "/sys/devices/17000000.gv11b";
  p.gpu_devfreq_dir = "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b";
  p.gpu_devfreq_dir_alt = "/sys/devices/17000000.gv11b/devfreq_dev";
  p.gpu_class_name = "17000000.gv11b";
  p.gpu_of_node_name = "gv11b";
  p.gpu_pm_dir = "/sys/devices/gpu.0";
  p.gpu_compatible = "of:Ngv11bT<NULL>Cnvidia,gv11b";
  // tegrastats reads /sys/devices/platform/gpu.0/load on NX (README 1.2).
  p.symlinks = {{"/sys/devices/gpu.0", "/sys/devices/17000000.gv11b"},
                {"/sys/devices/platform/gpu.0", "/sys/devices/17000000.gv11b"},
                {"/sys/devices/platform/c250000.i2c", "/sys/devices/c250000.i2c"}};
  // NX table [unconfirmed] apart from the 510 / 803.25 / 1109.25 MHz mode caps.
  p.gpu_freqs_hz = {114750000, 204000000, 306000000, 408000000,  510000000,  599250000,
                    701250000, 752250000, 803250000, 854250000,  905250000,  956250000,
                    1007250000, 1058250000, 1109250000};
  p.gpu_clock_debugfs = {"/sys/kernel/debug/bpmp/debug/clk/gpcclk/rate"};
  p.emc_rate_path = "/sys/kernel/debug/bpmp/debug/clk/emc/rate";
  p.emc_min_path = "/sys/kernel/debug/bpmp/debug/clk/emc/min_rate";
  p.emc_max_path = "/sys/kernel/debug/bpmp/debug/clk/emc/max_rate";
  p.emc_cap_path = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  p.emc_cap_path_alt = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  p.emc_freqs_hz = {204000000, 408000000, 665600000, 800000000, 1065600000, 1331200000, 1600000000, 1866000000};
  // Zone set [unconfirmed]: the AGX Xavier names.
  p.zones = {{"AO", -1.0}, {"GPU", -0.5}, {"Tboard", -0.5}, {"Tdiode", 0.5},
             {"AUX", -0.5}, {"CPU", 0.5}, {"thermal", -0.2}, {"PMIC", 0, false, true}};
  p.ina = {{"7-0040", "/sys/devices/c250000.i2c/i2c-7/7-0040", 0,
            {{"VDD_IN", rail_kind::input}, {"VDD_CPU_GPU_CV", rail_kind::cpu_gpu_cv}, {"VDD_SOC", rail_kind::soc}}}};
  p.has_tpc_param = true;
  p.has_oc_param = true;
  p.oc_hwmon_dir = "/sys/devices/platform/c250000.i2c/i2c-7/7-0040/hwmon";
  auto m = [](int id, const char* name, int cores, long long cpu_max, long long gpu_max, long long emc,
              const char* warn) {
    auto x = mode(id, name, range(0, cores - 1), 1190400, cpu_max, 0, gpu_max, emc);
    x.tpc_pg_mask = "1";
    x.oc_warn_ma = warn;
    x.oc_crit_ma = "5000";
    return x;
  };
  p.modes = {m(0, "MODE_15W_2CORE", 2, 1907200, 1109250000, 1600000000, "3000"),
             m(1, "MODE_15W_4CORE", 4, 1420800, 1109250000, 1600000000, "3000"),
             m(2, "MODE_15W_6CORE", 6, 1420800, 1109250000, 1600000000, "3000"),
             m(3, "MODE_10W_2CORE", 2, 1497600, 803250000, 1600000000, "3000"),
             m(4, "MODE_10W_4CORE", 4, 1190400, 803250000, 1600000000, "3000"),
             m(5, "MODE_10W_DESKTOP", 4, 1907200, 510000000, 1600000000, "3000"),
             m(6, "MODE_20W_2CORE", 2, 1907200, 1109250000, 1866000000, "4000"),
             m(7, "MODE_20W_4CORE", 4, 1420800, 1109250000, 1866000000, "4000"),
             m(8, "MODE_20W_6CORE", 6, 1420800, 1109250000, 1866000000, "4000")};
  p.default_mode = 5;
  p.ram_total_mb = 7772;
  p.swap_total_mb = 3886;
  p.mts = true;
  p.ape_mhz = 150;
  auto& c = p.power;
  c.cpu_core_static_mw = 30;
  c.cpu_core_max_mw = 900;
  c.gpu_static_mw = 150;
  c.gpu_max_mw = 8000;
  c.gpu_tpcs = 3;
  c.soc_static_mw = 1100;
  c.ddr_static_mw = 250;
  c.emc_max_mw = 900;
  c.input_base_mw = 1500;
  c.ambient_c = 28;
  c.thermal_c_per_w = 1.8;
  return p;
}

void orin_common(board_profile& p) {
  p.soc = "tegra234";
  p.l4t_major = 36;
  p.knext = true;
  p.release_line =
      "# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025";
  // r36 GPU: the KNEXT paths (README 1.1); gpu.0 aliases the same device (tegrastats reads both).
  p.gpu_device_dir = "/sys/devices/platform/17000000.gpu";
  p.gpu_devfreq_dir = "/sys/devices/platform/17000000.gpu/devfreq_dev";
  p.gpu_devfreq_dir_alt = "/sys/devices/17000000.ga10b/devfreq/17000000.ga10b";
  p.gpu_class_name = "17000000.gpu";
  // The device is named after its DT node "gpu@17000000", so of_node/name is "gpu" (jtop accepts it).
  p.gpu_of_node_name = "gpu";
  p.gpu_pm_dir = "/sys/devices/platform/gpu.0";
  p.gpu_pm_dir_alt = "/sys/devices/gpu.0";
  p.gpu_compatible = "of:NgpuT(null)Cnvidia,ga10b";
  p.symlinks = {{"/sys/devices/platform/gpu.0", "/sys/devices/platform/17000000.gpu"},
                {"/sys/devices/gpu.0", "/sys/devices/platform/17000000.gpu"}};
  // Two GPCs (README 1.2); tegrastats prints @[f0,f1]. pto_counter content unit [unconfirmed]: Hz here.
  p.gpu_clock_debugfs = {"/sys/kernel/debug/bpmp/debug/clk/nafll_gpc0/pto_counter",
                         "/sys/kernel/debug/bpmp/debug/clk/nafll_gpc1/pto_counter"};
  p.emc_rate_path = "/sys/kernel/debug/bpmp/debug/clk/emc/rate";
  p.emc_min_path = "/sys/kernel/debug/bpmp/debug/clk/emc/min_rate";
  p.emc_max_path = "/sys/kernel/debug/bpmp/debug/clk/emc/max_rate";
  p.emc_cap_path = "/sys/kernel/nvpmodel_clk_cap/emc";
  p.emc_cap_path_alt = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
  p.emc_freqs_hz = {204000000, 665600000, 2133000000, 3199000000};
  p.zones = {{"CV0", 0, true},  {"CPU", 1.5},  {"Tboard", -11}, {"SOC2", -3}, {"Tdiode", -10}, {"SOC0", -2},
             {"CV1", 0, true},  {"GPU", 0, true}, {"tj", 1.3},  {"SOC1", -1.8}, {"CV2", 0, true}};
  p.hwmon_rails = true;
  p.fan_hwmon = true;
  p.has_tpc_param = true;
  p.timestamp = true;
  p.rail_mw_suffix = true;
  p.gr3d_array = true;
  p.vic_field = true;
  p.ape_mhz = 174;
}

board_profile orin_agx() {
  board_profile p;
  orin_common(p);
  p.name = "orin-agx";
  p.description = "Jetson AGX Orin 64GB devkit (t234, ga10b), L4T r36.4.3, ina3221 hwmon rails";
  p.model = "NVIDIA Jetson AGX Orin Developer Kit";
  p.compatible = {"nvidia,p3737-0000+p3701-0005", "nvidia,p3701-0005", "nvidia,tegra234"};
  p.nvpmodel_conf_name = "nvpmodel_p3701_0005.conf";
  auto t = carmel_a78_table(2201600);
  p.clusters = {{"CPU_A78_0", range(0, 3), t}, {"CPU_A78_1", range(4, 7), t}, {"CPU_A78_2", range(8, 11), t}};
  p.gpu_freqs_hz = {114750000, 216750000, 318750000, 420750000,  522750000,  624750000, 726750000,
                    828750000, 930750000, 1032750000, 1134750000, 1236750000, 1300500000};
  // 0x40 and 0x41 on i2c-1, with the two NC channels the fixture prints; bus path [unconfirmed].
  p.ina = {{"1-0040", "/sys/devices/platform/c240000.i2c/i2c-1/1-0040", 3,
            {{"VDD_GPU_SOC", rail_kind::gpu_soc}, {"VDD_CPU_CV", rail_kind::cpu_cv}, {"VIN_SYS_5V0", rail_kind::sys5v}}},
           {"1-0041", "/sys/devices/platform/c240000.i2c/i2c-1/1-0041", 4,
            {{"NC", rail_kind::nc}, {"VDDQ_VDD2_1V8AO", rail_kind::ddr}, {"NC", rail_kind::nc}}}};
  auto m = [](int id, const char* name, int cores, long long cpu_max, long long gpu_max, long long emc,
              const char* tpc) {
    auto x = mode(id, name, range(0, cores - 1), 729600, cpu_max, 0, gpu_max, emc);
    x.tpc_pg_mask = tpc;
    return x;
  };
  p.modes = {m(0, "MAXN", 12, -1, -1, 0, "0"), m(1, "MODE_15W", 4, 1113600, 420750000, 2133000000, "248"),
             m(2, "MODE_30W", 8, 1728000, 624750000, 0, "240"), m(3, "MODE_50W", 12, 1497600, 828750000, 0, "0")};
  p.default_mode = 2;
  p.ram_total_mb = 62801;
  p.swap_total_mb = 31400;
  auto& c = p.power;
  c.cpu_core_static_mw = 25;
  c.cpu_core_max_mw = 1050;  // 12 cores busy at MAXN: about +12.6 W
  c.gpu_static_mw = 350;
  c.gpu_max_mw = 30000;
  c.gpu_tpcs = 8;
  c.soc_static_mw = 2000;
  c.ddr_static_mw = 200;
  c.emc_max_mw = 1800;
  c.cv_static_mw = 60;
  c.sys5v_mw = 3900;
  c.input_base_mw = 0;
  c.ambient_c = 28;
  c.thermal_c_per_w = 1.6;
  return p;
}

board_profile orin_nano() {
  board_profile p;
  orin_common(p);
  p.name = "orin-nano";
  p.description = "Jetson Orin Nano 8GB devkit (t234 p3767, ga10b), L4T r36.4.3, ina3221 hwmon rails";
  p.model = "NVIDIA Jetson Orin Nano Engineering Reference Developer Kit Super";
  p.compatible = {"nvidia,p3768-0000+p3767-0005-super", "nvidia,p3767-0005", "nvidia,tegra234"};
  p.nvpmodel_conf_name = "nvpmodel_p3767_0005_super.conf";
  auto t = carmel_a78_table(1728000);
  for (int i = 0; i < 6; ++i) p.clusters.push_back({"CPU_A78_" + std::to_string(i), {i}, t});
  // Table [unconfirmed] (README 1.3: board and L4T unconfirmed).
  p.gpu_freqs_hz = {306000000, 408000000, 510000000, 612000000, 714000000, 816000000, 918000000, 1020000000};
  p.zones = {{"CPU", 1.0}, {"SOC2", -2}, {"SOC0", -1.5}, {"GPU", 0.5}, {"tj", 1.1}, {"SOC1", -1.0}};
  // Rail names [unconfirmed] (README 6.2).
  p.ina = {{"1-0040", "/sys/devices/platform/c240000.i2c/i2c-1/1-0040", 1,
            {{"VDD_IN", rail_kind::input}, {"VDD_CPU_GPU_CV", rail_kind::cpu_gpu_cv}, {"VDD_SOC", rail_kind::soc}}}};
  p.has_fbp_param = true;
  // r36.4 "Super" ids and caps [unconfirmed]: 15W, 25W, MAXN_SUPER and the 7W tier.
  auto m = [](int id, const char* name, int cores, long long cpu_max, long long gpu_max, long long emc) {
    auto x = mode(id, name, range(0, cores - 1), 729600, cpu_max, 0, gpu_max, emc);
    x.tpc_pg_mask = "0";
    x.fbp_pg_mask = "0";
    return x;
  };
  p.modes = {m(0, "15W", 6, 1497600, 612000000, 2133000000), m(1, "25W", 6, 1344000, 918000000, 0),
             m(2, "MAXN_SUPER", 6, -1, -1, 0), m(3, "7W", 4, 960000, 408000000, 2133000000)};
  p.default_mode = 1;
  p.ram_total_mb = 7620;
  p.swap_total_mb = 3810;
  auto& c = p.power;
  c.cpu_core_static_mw = 25;
  c.cpu_core_max_mw = 700;
  c.gpu_static_mw = 200;
  c.gpu_max_mw = 9000;
  c.gpu_tpcs = 4;
  c.soc_static_mw = 900;
  c.ddr_static_mw = 200;
  c.emc_max_mw = 900;
  c.cv_static_mw = 40;
  c.input_base_mw = 2300;
  c.ambient_c = 28;
  c.thermal_c_per_w = 2.0;
  return p;
}


// JetPack 7 tegrastats as root: the engines it prints `off` when idle (jtop's test_06 JP7.2 line).
const std::vector<std::string> jp7_orin_engines = {"NVENC0", "NVDEC0", "NVJPG0", "NVJPG1", "VIC",
                                                   "OFA",    "NVDLA0", "NVDLA1", "PVA0_FREQ"};

// AGX Orin on JetPack 7.2 (L4T r39.2, kernel 6.8 sbsa): the r36 board with the classic nvgpu
// node at bus@0 (no KNEXT twins), no enable_3d_scaling (3D scaling is the devfreq governor,
// jtop PR #867) and the JP7.2 tegrastats line. NVML there answers NotSupported; the simulator
// has none, which jetperf treats alike.
board_profile orin_agx_jp7() {
  board_profile p = orin_agx();
  p.name = "orin-agx-jp7";
  p.description = "Jetson AGX Orin 64GB devkit (t234, ga10b) on JetPack 7.2, L4T r39.2, ina3221 hwmon rails";
  // GCID and date [assumed] (orin-agx_r39.layout).
  p.release_line =
      "# R39 (release), REVISION: 2.0, GCID: 43121880, BOARD: generic, EABI: aarch64, DATE: Fri May 15 00:00:00 UTC 2026";
  p.l4t_major = 39;
  p.knext = false;
  const std::string gpu = "/sys/devices/platform/bus@0/17000000.gpu";
  p.gpu_device_dir = gpu;
  p.gpu_devfreq_dir = gpu + "/devfreq/17000000.gpu";
  p.gpu_devfreq_dir_alt.clear();
  p.gpu_pm_dir = gpu;
  p.gpu_pm_dir_alt.clear();
  p.symlinks.clear();
  p.enable_3d_scaling = false;
  p.gpu_governors = "nvhost_podgov performance userspace";
  p.emc_cap_path_alt.clear();
  p.zones = {{"cpu-thermal", 1.5}, {"soc2-thermal", -3}, {"soc0-thermal", -2}, {"gpu-thermal", -0.5}};
  const std::string i2c = "/sys/devices/platform/bus@0/c240000.i2c/i2c-1/";
  p.ina[0].device_path = i2c + "1-0040";
  p.ina[0].hwmon_index = 1;
  p.ina[1].device_path = i2c + "1-0041";
  p.ina[1].hwmon_index = 2;
  p.swap_total_mb = 0;  // the JP7.2 line has no SWAP field
  p.vic_field = false;
  p.engines_off = jp7_orin_engines;
  p.temp_max = true;
  p.rail_max = true;
  return p;
}

// AGX Thor devkit (T5000, tegra264) on L4T r38/r39 (JetPack 7): thor_r39.layout's tree. The
// GPU is the devfreq entry gpu-gpc-0 (and gpu-nvd-0) with no nvgpu files; the carrier's INA238
// VIN is the total beside the module's INA3221; UCSI supplies sit beside them; no EMC control.
board_profile thor() {
  board_profile p;
  p.name = "thor";
  p.description = "Jetson AGX Thor devkit (t264 T5000, OpenRM GPU through devfreq gpu-gpc-0), L4T r39.2, ina238 VIN + ina3221";
  p.soc = "tegra264";
  p.model = "NVIDIA Jetson AGX Thor Developer Kit";
  p.compatible = {"nvidia,p4071-0000+p3834-0008", "nvidia,p3834-0008", "nvidia,tegra264"};
  p.release_line =
      "# R39 (release), REVISION: 2.0, GCID: 43121880, BOARD: generic, EABI: aarch64, DATE: Fri May 15 00:00:00 UTC 2026";
  p.l4t_major = 39;
  p.nvpmodel_conf_name = "nvpmodel_p3834_0008.conf";
  // 14 Neoverse-V3AE cores in one policy; the ladder and 2601.6 MHz top [assumed].
  p.clusters = {{"CPU_V3AE", range(0, 13), carmel_a78_table(2601600)}};
  const std::string df = "/sys/devices/virtual/devfreq/gpu-gpc-0";
  p.gpu_device_dir = df;
  p.gpu_devfreq_dir = df;
  p.gpu_class_name = "gpu-gpc-0";
  p.gpu_pm_dir = df;
  p.nvgpu_sysfs = false;
  p.enable_3d_scaling = false;
  p.gpu_governors = "nvhost_podgov performance userspace";
  p.gpu_extra_devfreq = {"gpu-nvd-0"};
  p.gpu_gpcs = 3;  // GR3D_FREQ @[f0,f1,f2] (jtop's test_06 Thor line)
  // Ladder [assumed] up to the T5000's 1575 MHz; 1 GHz is the layouts' cur_freq.
  p.gpu_freqs_hz = {300000000, 402000000, 504000000,  606000000,  708000000,  810000000,  912000000,
                    1000000000, 1116000000, 1218000000, 1320000000, 1422000000, 1524000000, 1575000000};
  p.emc_freqs_hz = {2133000000, 3199000000, 4266000000};  // model only, no files [assumed]
  p.zones = {{"cpu-thermal", 1.0}, {"tj-thermal", 3.0}, {"soc012-thermal", -1.0},
             {"gpu-thermal", 0, true}, {"soc345-thermal", 3.0}};
  p.hwmon_rails = true;
  p.ina = {{"1-0040", "/sys/devices/platform/bus@0/c240000.i2c/i2c-1/1-0040", 1,
            {{"VDD_GPU", rail_kind::gpu}, {"VDD_CPU_SOC_MSS", rail_kind::cpu_soc_mss}, {"VIN_SYS_5V0", rail_kind::sys5v}}}};
  p.ina238 = {{"7-0044", "/sys/devices/platform/bus@0/c250000.i2c/i2c-7/7-0044", 3}};
  p.ucsi_supplies = {"ucsi-source-psy-USBC000:001"};
  p.fan_hwmon = true;
  // Modes 0 MAXN and 1 120W (r38.2, jetpack-nixos PR #460); 2 90W and 3 70W from a later T5000
  // conf (docs/boards.md). Every cap and core count below MAXN [assumed].
  p.modes = {mode(0, "MAXN", range(0, 13), 0, -1, 0, -1, 0),
             mode(1, "120W", range(0, 13), 0, -1, 0, 1320000000, 0),
             mode(2, "90W", range(0, 11), 0, 2188800, 0, 1116000000, 0),
             mode(3, "70W", range(0, 9), 0, 1958400, 0, 912000000, 0)};
  p.default_mode = 1;  // `NV Power Mode[1]: 120W` on a fresh r38.4 (jtop #820) [assumed default]
  p.ram_total_mb = 125772;  // 128 GB module [assumed figure]
  p.swap_total_mb = 0;
  p.timestamp = true;
  p.rail_mw_suffix = true;
  p.rail_max = true;
  p.gr3d_array = true;
  p.gr3d_load = false;
  // As Thor's r38.4 and r39.2 lines print them (tests/fixtures/tegrastats_thor_*.txt): the video,
  // JPEG and optical-flow engines as a clock with no load, `@0` while gated, VIC and PVA0 `off`,
  // APE at 300 MHz; `name@curC/maxC` (r39.2), and no `gpu@` while the GPU is gated (r38.4).
  p.engines_off = {"NVENC0_FREQ", "NVENC1_FREQ", "NVDEC0_FREQ", "NVDEC1_FREQ", "NVJPG0_FREQ", "VIC", "OFA_FREQ", "PVA0_FREQ"};
  p.engines_at_freq = {"NVENC0_FREQ", "NVENC1_FREQ", "NVDEC0_FREQ", "NVDEC1_FREQ", "NVJPG0_FREQ", "OFA_FREQ"};
  p.ape_mhz = 300;
  p.temp_max = true;
  p.omit_offline_zones = true;
  auto& c = p.power;
  c.cpu_core_static_mw = 60;
  c.cpu_core_max_mw = 1800;  // 14 cores busy at MAXN: about +25 W
  c.gpu_static_mw = 1500;
  c.gpu_max_mw = 60000;
  c.gpu_tpcs = 10;
  c.soc_static_mw = 6000;
  c.ddr_static_mw = 1500;
  c.emc_max_mw = 4000;
  c.sys5v_mw = 2500;
  c.input_base_mw = 8000;  // carrier, fan, NVMe and PD losses the module rails do not see
  c.input_efficiency = 0.88;
  c.ambient_c = 28;
  c.thermal_c_per_w = 0.5;
  return p;
}
}  // namespace

const mode_spec* board_profile::find_mode(int id) const {
  for (const auto& m : modes)
    if (m.id == id) return &m;
  return nullptr;
}

int board_profile::core_count() const {
  int n = 0;
  for (const auto& c : clusters) n += static_cast<int>(c.cores.size());
  return n;
}

const std::vector<board_profile>& board_profiles() {
  static const std::vector<board_profile> all = {tx2(),      nano(),      xavier_agx(),   xavier_nx(),
                                                     orin_agx(), orin_nano(), orin_agx_jp7(), thor()};
  return all;
}

const board_profile& find_profile(const std::string& name) {
  std::string known;
  for (const auto& p : board_profiles()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw not_found("unknown simulated board profile '" + name + "' (known: " + known + ")", "board");
}

}  // namespace jetperf::sim
