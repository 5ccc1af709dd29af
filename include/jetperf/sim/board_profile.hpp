#pragma once
// What a simulated board is made of: the facts of one Jetson family and L4T release
// (shared/jetson/README.md), as data that the tree writer, the nvpmodel.conf writer, the two
// programs and the rail simulator all read. Values marked [unconfirmed] in the README are marked
// the same way where the profiles are defined (src/sim/board_profiles.cpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jetperf::sim {

/// CPU cores sharing one clock (one nvpmodel CLOCK param written through the first core).
struct cpu_cluster {
  std::string param;                    ///< nvpmodel param name, e.g. "CPU_A78_0"
  std::vector<int> cores;               ///< core numbers, first one carries the param's paths
  std::vector<long long> freqs_khz;     ///< scaling_available_frequencies, ascending
};

/// Which power domains a rail measures (the rail simulator sums them).
enum class rail_kind { input, cpu, gpu, soc, ddr, cv, sys5v, wifi, gpu_soc, cpu_cv, cpu_gpu_cv, nc, cpu_soc_mss };

struct rail_channel {
  std::string label;  ///< rail name as tegrastats prints it ("NC" for unconnected channels)
  rail_kind kind;
};

/// A power monitor's timing and noise as the rail simulator keeps them (rail_simulator.hpp): what
/// the sensor card (the `sensor` kind) must find. A profile file names them per chip
/// (update_period_ms, lag_ms, noise_mw, noise_fraction: docs/simulator.md).
struct sensor_timing {
  /// The update period at the tree's averaging count of 16: an INA3221 averaging 16 samples of
  /// bus and shunt voltage (204 us conversions each) on its 3 channels, 3 x 16 x 408 us. Each
  /// reading is the mean over the period before it (a hwmon chip's follows its `samples`).
  long long period_us = 19584;
  /// From the end of a reading's window to the reading being in the files (the card's delay): 0
  /// for an INA3221, whose register holds the new mean the moment its conversion ends.
  long long lag_us = 0;
  /// Each reading's noise at 16 samples, uniform within +-(fraction x the rail's power +
  /// noise_mw); averaging fewer samples leaves more of it (x sqrt(16 / samples)).
  double noise_fraction = 0.003;
  double noise_mw = 0;
  double window_s() const { return static_cast<double>(period_us) * 1e-6; }
  double delay_s() const { return static_cast<double>(lag_us) * 1e-6; }
  /// A load step shows half its size this long after it: the delay and half a window.
  double lag_s() const { return delay_s() + window_s() / 2; }
};

/// One INA3221 chip: three channels on an I2C address.
struct ina_chip {
  std::string bus_addr;     ///< "1-0040"
  std::string device_path;  ///< real device directory, e.g. "/sys/devices/platform/c240000.i2c/i2c-1/1-0040"
  int hwmon_index = 0;      ///< hwmonN (r35+) or iio:deviceN (r32)
  std::vector<rail_channel> channels;  ///< exactly three
  /// Its own timing and noise (nullopt: the board's, board_profile::sensor).
  std::optional<sensor_timing> timing;
};

/// One INA238 (Thor's carrier VIN monitor): one channel, no label, hwmon power1_input in
/// microwatts beside in1_input (mV) and curr1_input (mA); the board's total.
struct ina238_chip {
  std::string bus_addr;     ///< "7-0044"
  std::string device_path;  ///< real device directory
  int hwmon_index = 0;      ///< hwmonN
  std::optional<sensor_timing> timing;  ///< nullopt: the board's (board_profile::sensor)
};

struct thermal_zone_spec {
  std::string type;     ///< zone type = tegrastats name, less a "-thermal" suffix (JetPack 7)
  double offset_c = 0;  ///< added to the modelled die temperature
  bool offline = false; ///< reads -256000 (sensor not available)
  bool fixed_trip = false;  ///< PMIC: a fixed 100 C trip value, not a measurement
};

/// One nvpmodel mode as facts (README 8.3); the conf writer turns it into a POWER_MODEL block.
struct mode_spec {
  int id = 0;
  std::string name;
  std::vector<int> online;          ///< cores online (all others offline)
  long long cpu_min_khz = 0;        ///< MIN_FREQ of every active cluster
  long long cpu_max_khz = -1;       ///< MAX_FREQ of every active cluster (-1 = no limit)
  long long gpu_min_hz = 0;
  long long gpu_max_hz = -1;
  long long emc_max_hz = 0;         ///< 0 = no cap
  std::string tpc_pg_mask;          ///< "" when the board has no TPC param
  std::string fbp_pg_mask;          ///< "" when the board has no FBP param
  std::string oc_warn_ma, oc_crit_ma;  ///< HWMON over-current limits (Xavier NX r32.7), "" if none
};

/// Rail model constants (documented in power_model.hpp).
struct power_constants {
  double cpu_core_static_mw = 20;  ///< per online core
  double cpu_core_max_mw = 1000;   ///< dynamic power of one core at f_max, V_max, 100 % busy
  double gpu_static_mw = 200;      ///< GPU powered on (not rail-gated)
  double gpu_max_mw = 10000;       ///< dynamic GPU power at f_max, V_max, load 100 %, no TPC gated
  int gpu_tpcs = 8;                ///< TPCs that tpc_pg_mask can gate
  double v_min_ratio = 0.65;       ///< V(f_min) / V(f_max); V is linear in f between them
  double soc_static_mw = 500;
  double ddr_static_mw = 200;
  double emc_max_mw = 800;         ///< DDR dynamic power at the top EMC rate and full traffic
  double cv_static_mw = 0;
  double sys5v_mw = 0;             ///< 5 V system rail (fixed part)
  double wifi_mw = 0;
  double input_base_mw = 1000;     ///< module parts no sub-rail measures
  double input_efficiency = 0.9;   ///< regulators between the input rail and the sub-rails
  double ambient_c = 30;
  double thermal_c_per_w = 1.5;    ///< steady-state die rise per watt of total power
  double thermal_tau_s = 20;       ///< first-order thermal time constant
};

/// Every field is a profile file's too: src/sim/profile_file.cpp lists them all (fields_of), and
/// a field added here goes there (tests/unit/sim/profile_file_test.cpp reads Thor's back).
struct board_profile {
  std::string name;         ///< "orin-agx"
  std::string description;  ///< one line for `--board sim:?` listings
  std::string soc;          ///< "tegra234"
  std::string model;        ///< /proc/device-tree/model
  std::vector<std::string> compatible;  ///< /proc/device-tree/compatible entries
  std::string release_line; ///< first line of /etc/nv_tegra_release
  int l4t_major = 32;       ///< 32, 35, 36
  bool knext = false;       ///< nvpmodel writes the *_KNEXT paths (r36)
  std::string nvpmodel_conf_name;  ///< /etc/nvpmodel/<this>

  std::vector<cpu_cluster> clusters;
  std::string cpu_governor = "schedutil";

  // GPU (README 1)
  std::string gpu_device_dir;   ///< real device dir holding load, railgate_enable, devfreq node
  std::string gpu_devfreq_dir;  ///< devfreq directory (cur/min/max/available_frequencies)
  std::string gpu_class_name;   ///< /sys/class/devfreq/<name>
  std::string gpu_of_node_name; ///< device/of_node/name ("gv11b", "gpu", ...)
  std::string gpu_devfreq_dir_alt;  ///< the other kernel's devfreq dir (KNEXT line, or the plain line when knext)
  std::string gpu_pm_dir;       ///< dir nvpmodel writes tpc_pg_mask / power/control into
  std::string gpu_pm_dir_alt;   ///< the other kernel's variant of gpu_pm_dir ("" = none)
  std::string gpu_compatible;   ///< modalias-style compatible string
  std::vector<long long> gpu_freqs_hz;
  std::vector<std::string> gpu_clock_debugfs;  ///< actual GPC clock files (one per GPC)
  /// nvgpu's device files (of_node/name, load, railgate_enable, power/control, tpc_pg_mask ...);
  /// false on Thor, whose OpenRM GPU shows only devfreq entries (gpu_devfreq_dir is the device).
  bool nvgpu_sysfs = true;
  bool enable_3d_scaling = true;  ///< nvgpu's enable_3d_scaling file (gone on L4T r39: the governor is it)
  std::string gpu_governors = "wmark_active nvhost_podgov userspace performance simple_ondemand";
  /// The GPU's other devfreq entries under /sys/devices/virtual/devfreq (Thor's gpu-nvd-0).
  std::vector<std::string> gpu_extra_devfreq;
  int gpu_gpcs = 1;             ///< GR3D_FREQ @[...] entries when no clock file per GPC is kept

  // EMC (README 2)
  /// debugfs; "" where jetperf has no EMC control (Thor: bwmgr devfreq), and the model then runs
  /// the EMC on its own table with no files.
  std::string emc_rate_path, emc_min_path, emc_max_path;
  std::string emc_cap_path;     ///< nvpmodel cap file for the path set the tools use
  std::string emc_cap_path_alt; ///< the other kernel's cap file ("" = none)
  std::vector<long long> emc_freqs_hz;

  /// Extra symlinks (link board path, target board path): aliases real boards have.
  std::vector<std::pair<std::string, std::string>> symlinks;

  std::vector<thermal_zone_spec> zones;
  std::vector<ina_chip> ina;    ///< empty: no power monitor
  std::vector<ina238_chip> ina238;  ///< after the INA3221 rails; named VIN, the total
  /// /sys/class/power_supply entries of USB-C PD sources (UCSI): negotiated limits, not readings.
  std::vector<std::string> ucsi_supplies;
  bool hwmon_rails = false;     ///< r35+ hwmon layout; r32 IIO layout otherwise

  bool fan_hwmon = false;       ///< r35+ pwmfan hwmon; r32 /sys/devices/pwm-fan
  std::vector<std::string> fan_modes;  ///< nvpmodel -d modes (Xavier r32), empty if none
  std::string default_fan_mode;

  bool has_tpc_param = false, has_fbp_param = false, has_oc_param = false;
  std::string oc_hwmon_dir;     ///< HWMON param directory (Xavier NX)
  std::vector<mode_spec> modes;
  int default_mode = 0;

  // tegrastats (README 7)
  int ram_total_mb = 4096;
  int swap_total_mb = 0;        ///< 0: no SWAP field
  bool timestamp = false;       ///< leading MM-DD-YYYY HH:MM:SS (r35+)
  bool rail_mw_suffix = false;  ///< NAME curmW/avgmW (r35+) instead of cur/avg
  bool gr3d_array = false;      ///< GR3D_FREQ l%@[f0,f1] (r36)
  bool iram = false;            ///< IRAM field as root (Nano)
  bool mts = false;             ///< MTS fg/bg field as root (TX2, Xavier)
  bool vic_field = false;       ///< VIC_FREQ as root (Orin)
  int ape_mhz = 25;             ///< APE clock printed as root
  bool rail_max = false;        ///< NAME curmW/avgmW/maxmW (JetPack 7)
  bool temp_max = false;        ///< name@curC/maxC (JetPack 7.2 on Orin)
  bool gr3d_load = true;        ///< false: GR3D_FREQ @[f0,...] without a load (Thor)
  std::vector<std::string> engines_off;  ///< "NVENC0 off ..." as root (JetPack 7), before APE
  /// Of engines_off, those printed `NAME @f`, a clock with no load and `@0` while gated (Thor's
  /// NVENCn_FREQ, NVDECn_FREQ, NVJPG0_FREQ, OFA_FREQ: its r38.4 and r39.2 lines in tests/fixtures).
  std::vector<std::string> engines_at_freq;
  bool omit_offline_zones = false;  ///< no `name@` for a zone that reads -256 C (Thor's gated GPU, r38.4 lines)

  power_constants power;
  sensor_timing sensor;  ///< every power monitor's unless it names its own

  /// A chip's timing: its own, else the board's.
  const sensor_timing& timing_of(const ina_chip& chip) const { return chip.timing ? *chip.timing : sensor; }
  const sensor_timing& timing_of(const ina238_chip& chip) const { return chip.timing ? *chip.timing : sensor; }

  const mode_spec* find_mode(int id) const;
  int core_count() const;
};

/// All profiles: tx2, nano, xavier-agx, xavier-nx, orin-agx, orin-nano, orin-agx-jp7, thor.
const std::vector<board_profile>& board_profiles();
/// The profile of that name; throws not_found listing the known names.
const board_profile& find_profile(const std::string& name);

}  // namespace jetperf::sim
