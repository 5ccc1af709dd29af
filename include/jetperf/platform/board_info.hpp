#pragma once
// Which board this is (README section 0): SoC family, module, L4T and JetPack release.
#include <functional>
#include <string>
#include <vector>

#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

struct board_info {
  bool jetson = false;
  /// "t210", "t186", "t194", "t234", "t264"; "unknown" for a Tegra SoC not in that list (a Jetson
  /// all the same, served with whatever rails, clocks and zones it has); "dgpu" or "host" off Jetson.
  std::string family;
  std::string soc;      ///< "tegra234", ...; "" on a host
  std::string model;    ///< device-tree model string as the board prints it
  std::string module;   ///< "AGX Thor", "AGX Orin", "Orin Nano", "Orin NX", "AGX Xavier", "Xavier NX", "TX2", "Nano", ""
  std::vector<std::string> compatible;  ///< device-tree compatible entries
  std::string l4t;      ///< "35.4.1"; "" when /etc/nv_tegra_release is absent
  int l4t_major = 0;
  std::string jetpack;  ///< "5.1.2"; "" when the release is not in the table
};

/// Reads the device tree and /etc/nv_tegra_release under `root`. Never throws for missing files:
/// a machine without them is a `host`, or `dgpu` when `dgpu_probe` (NVML, owned by telemetry)
/// says a discrete NVIDIA GPU is present.
board_info detect_board(const sysfs_root& root, const std::function<bool()>& dgpu_probe = {});
/// "35.4.1" from the first line of /etc/nv_tegra_release ("# R35 (release), REVISION: 4.1, ...");
/// "" when it does not match.
std::string parse_l4t_release(const std::string& text);
/// JetPack release of an L4T release per the table in README section 0; "" when unknown.
std::string jetpack_for_l4t(const std::string& l4t);

}  // namespace jetperf::platform
