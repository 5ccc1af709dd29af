#pragma once
// The files of a simulated board directory:
//   <dir>/profile            profile name ("orin-agx")
//   <dir>/profile.json       the whole profile, for a board served from a profile file
//   <dir>/nvpmodel.conf      link to root/etc/nvpmodel/<conf> (the board's /etc/nvpmodel.conf)
//   <dir>/root/...           the board's file system (sysfs, procfs, debugfs, /etc, /var)
//   <dir>/bin/nvpmodel, <dir>/bin/tegrastats   the simulator's programs
#include <jetperf/sim/board_profile.hpp>

#include <string>

namespace jetperf::sim {

class board_layout {
 public:
  explicit board_layout(std::string dir);
  const std::string& dir() const { return dir_; }
  std::string root() const { return dir_ + "/root"; }
  std::string bin_dir() const { return dir_ + "/bin"; }
  std::string nvpmodel_conf() const { return dir_ + "/nvpmodel.conf"; }
  std::string profile_file() const { return dir_ + "/profile"; }
  std::string profile_json_file() const { return dir_ + "/profile.json"; }
  /// Board path of the stored mode ("pmode:NNNN fmode:<fan>", location [unconfirmed], README 8.1).
  static constexpr const char* status_board_path = "/var/lib/nvpmodel/status";
  std::string status_file() const { return root() + status_board_path; }
  /// The board's profile: <dir>/profile.json where the board was made from a file (read once per
  /// process), else the built-in one named in <dir>/profile; throws not_found when missing or
  /// unknown, validation_error for a profile file that is not one.
  const board_profile& profile() const;

 private:
  std::string dir_;
};

/// Current nvpmodel mode and fan mode as the status file stores them.
struct nvpmodel_status {
  int mode = -1;         ///< -1: never set
  std::string fan_mode;  ///< "" when the board has no fan modes
  /// A mode confirmed with YES that changes GPU power gating: applied when the board boots
  /// (sim_board::create, `nvpmodel --boot`); -1: none.
  int pending = -1;
};

nvpmodel_status read_nvpmodel_status(const board_layout& layout);
void write_nvpmodel_status(const board_layout& layout, const nvpmodel_status& status);

}  // namespace jetperf::sim
