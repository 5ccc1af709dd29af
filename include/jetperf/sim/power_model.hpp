#pragma once
// The simulator's power model: domain powers from the clocks and loads of one instant.
//
//   V(f)/V(f_max) = v0 + (1 - v0) * (f - f_min) / (f_max - f_min)          (v0 = v_min_ratio)
//   dyn(f)        = (f / f_max) * (V(f)/V(f_max))^2                         (P ~ f * V^2)
//   P_cpu  = sum over online cores of  s_core + c_core * dyn(f_cluster) * u_core
//   P_gpu  = powered ? s_gpu + c_gpu * dyn(f_gpu) * (0.1 + 0.9 * load) * (1 - gated_tpcs / tpcs) : 0
//   P_ddr  = s_ddr + c_emc * (f_emc / f_emc_max) * (0.2 + 0.8 * emc_util)
//   P_soc  = s_soc * (0.85 + 0.15 * f_emc / f_emc_max)
//   P_sys5v = s_sys5v + 0.03 * (P_cpu + P_gpu)          (fan, regulators on the 5 V rail)
//   P_in   = (P_cpu + P_gpu + P_soc + P_ddr + P_cv + P_wifi) / efficiency + base
// u_core is the real host CPU load (host core i % n_host), load is the GPU `load` file / 1000.
// Rails sum the domains they measure (rail_kind); boards without an input rail report the sum.
#include <jetperf/sim/board_profile.hpp>

#include <vector>

namespace jetperf::sim {

/// The clocks and loads the model takes (one step of the rail simulator).
struct board_load {
  std::vector<bool> online;            ///< per core
  std::vector<long long> core_khz;     ///< per core: its cluster's current frequency
  std::vector<double> core_util;       ///< per core, 0..1
  long long gpu_hz = 0;
  double gpu_load = 0;                 ///< 0..1
  bool gpu_powered = false;
  int gpu_gated_tpcs = 0;
  long long emc_hz = 0;
  double emc_util = 0;                 ///< 0..1
  /// How much the CPU work switches per cycle against a typical op: dense convolutions more than
  /// 1, element-wise ops less (power_model's intensity_factor of the work noted); 1 when unknown.
  double cpu_intensity = 1;
};

/// The CPU dynamic power of work of `macs_per_byte` against a typical op: 0.55 for element-wise
/// work (no reuse), rising to 1.45 for dense convolutions (hundreds of MACs per byte), 1 at 8.
double intensity_factor(double macs_per_byte);

/// Power of each domain in mW.
struct domain_power {
  double cpu = 0, gpu = 0, soc = 0, ddr = 0, cv = 0, sys5v = 0, wifi = 0, input = 0;
  /// What a rail of this kind reads (nc: 0).
  double rail(rail_kind kind) const;
};

domain_power compute_power(const board_profile& profile, const board_load& load);

/// Module total as the daemon should report it: the input rail where the board has one,
/// otherwise the sum of its rails (AGX Xavier, AGX Orin: README 10.4).
double board_total_mw(const board_profile& profile, const domain_power& power);

}  // namespace jetperf::sim
