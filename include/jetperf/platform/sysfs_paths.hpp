#pragma once
// The one table of board paths (shared/jetson/README.md sections 0-5). No other file in jetperf
// spells a /sys, /proc or debugfs path; everything else discovers through these roots.
namespace jetperf::platform::paths {

// Identification (README section 0).
inline constexpr const char* dt_model = "/proc/device-tree/model";
inline constexpr const char* dt_compatible = "/proc/device-tree/compatible";
inline constexpr const char* dt_model_fw = "/sys/firmware/devicetree/base/model";
inline constexpr const char* tegra_release = "/etc/nv_tegra_release";
inline constexpr const char* meminfo = "/proc/meminfo";
inline constexpr const char* nvpmodel_conf = "/etc/nvpmodel.conf";

// GPU (README 1.1): found through devfreq entries whose device's of_node is the GPU.
inline constexpr const char* devfreq_class = "/sys/class/devfreq";

// CPU (README 3).
inline constexpr const char* cpu_dir = "/sys/devices/system/cpu";
/// Per-CPU jiffies (the first line sums all CPUs).
inline constexpr const char* proc_stat = "/proc/stat";

// Control groups: where they are mounted and which this process is in.
inline constexpr const char* self_mountinfo = "/proc/self/mountinfo";
inline constexpr const char* self_cgroup = "/proc/self/cgroup";
/// This process's program file (the simulator finds its programs beside it).
inline constexpr const char* self_exe = "/proc/self/exe";
inline constexpr const char* cpu_online = "/sys/devices/system/cpu/online";
inline constexpr const char* cpu_present = "/sys/devices/system/cpu/present";
inline constexpr const char* cpufreq_dir = "/sys/devices/system/cpu/cpufreq";

// Engine clocks (README 10; what tegrastats itself reads, fixture
// sysfs_tegrastats-internal-sources_tstats.txt): whether an engine's clock runs is the common
// clock framework's enable count, <debug_clk_dir>/<clock>/clk_enable_count; its rate is BPMP's
// <bpmp_clk_dir>/<clock>/rate on t186/t194/t234, the clock's own <debug_clk_dir>/<clock>/clk_rate
// on t210. Root only.
inline constexpr const char* debug_clk_dir = "/sys/kernel/debug/clk";
inline constexpr const char* bpmp_clk_dir = "/sys/kernel/debug/bpmp/debug/clk";

// EMC on t186/t194/t234: BPMP debugfs (README 2; root only).
inline constexpr const char* bpmp_emc_rate = "/sys/kernel/debug/bpmp/debug/clk/emc/rate";
inline constexpr const char* bpmp_emc_min = "/sys/kernel/debug/bpmp/debug/clk/emc/min_rate";
inline constexpr const char* bpmp_emc_max = "/sys/kernel/debug/bpmp/debug/clk/emc/max_rate";
inline constexpr const char* bpmp_emc_locked = "/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked";
// [unconfirmed] a rate list beside the BPMP clock files; used only when present.
inline constexpr const char* bpmp_emc_possible = "/sys/kernel/debug/bpmp/debug/clk/emc/possible_rates";
// EMC on t210 (Nano): clk override + tegra_bwmgr (README 2).
inline constexpr const char* t210_emc_rate = "/sys/kernel/debug/clk/override.emc/clk_rate";
inline constexpr const char* t210_emc_update = "/sys/kernel/debug/clk/override.emc/clk_update_rate";
inline constexpr const char* t210_emc_state = "/sys/kernel/debug/clk/override.emc/clk_state";
inline constexpr const char* t210_emc_min = "/sys/kernel/debug/tegra_bwmgr/emc_min_rate";
inline constexpr const char* t210_emc_max = "/sys/kernel/debug/tegra_bwmgr/emc_max_rate";
// nvpmodel EMC caps: r32/r35 and r36.
inline constexpr const char* emc_iso_cap = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
inline constexpr const char* emc_clk_cap = "/sys/kernel/nvpmodel_clk_cap/emc";

// Fan (README 5): r32 pwm-fan, legacy debugfs, r35+ hwmon "pwmfan".
inline constexpr const char* fan_pwm_r32 = "/sys/devices/pwm-fan/target_pwm";
inline constexpr const char* fan_pwm_legacy = "/sys/kernel/debug/tegra_fan/target_pwm";
inline constexpr const char* hwmon_class = "/sys/class/hwmon";

// Thermal zones: thermal_zoneN/{type,temp} (millidegrees).
inline constexpr const char* thermal_dir = "/sys/devices/virtual/thermal";

// Power rails (README 4): INA3221 chips found as jtop finds them, by device name and by driver.
inline constexpr const char* i2c_devices = "/sys/bus/i2c/devices";
inline constexpr const char* ina3221x_driver = "/sys/bus/i2c/drivers/ina3221x";

// x86 hosts: RAPL energy counters (intel-rapl:N[:M]/energy_uj).
inline constexpr const char* powercap_class = "/sys/class/powercap";

}  // namespace jetperf::platform::paths
