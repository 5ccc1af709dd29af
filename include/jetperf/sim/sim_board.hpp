#pragma once
// A simulated Jetson board: a directory made from a profile (board_layout.hpp) holding a sysfs
// tree, an nvpmodel.conf and the `nvpmodel`/`tegrastats` programs, kept alive by a rail simulator.
// The daemon uses paths() as its sysfs root and tool paths and cannot otherwise tell it from a
// real board.
#include <jetperf/sim/board_layout.hpp>
#include <jetperf/sim/board_profile.hpp>
#include <jetperf/sim/rail_simulator.hpp>

#include <memory>
#include <string>

namespace jetperf::sim {

struct sim_paths {
  std::string dir;              ///< the board directory
  std::string sysfs_root;       ///< <dir>/root
  std::string nvpmodel_path;    ///< <dir>/bin/nvpmodel
  std::string tegrastats_path;  ///< <dir>/bin/tegrastats
  std::string nvpmodel_conf;    ///< <dir>/nvpmodel.conf (the board's /etc/nvpmodel.conf)
};

struct sim_create_options {
  /// Rebuild settings and live files and re-apply the default mode, even if the board exists.
  bool reset = false;
  /// Directory holding the built jetperf-sim-nvpmodel and jetperf-sim-tegrastats programs;
  /// "" = look beside the running executable (<exe dir>, <exe dir>/sim, <exe dir>/../lib/jetperf).
  std::string tools_dir;
};

class sim_board {
 public:
  /// Builds or refreshes the board directory `dir` for `profile` (idempotent: an existing board
  /// keeps its settings and mode unless options.reset). A new or reset board gets its default
  /// nvpmodel mode applied. Throws not_found for an unknown profile, platform_error when the
  /// directory cannot be written or the programs cannot be found.
  static sim_board create(const std::string& profile, const std::string& dir, const sim_create_options& options = {});
  /// The same for a profile of the caller's (a profile file, read_profile_file): the board
  /// directory keeps it whole (board_layout::profile_json_file) for the simulator's programs.
  static sim_board create(board_profile profile, const std::string& dir, const sim_create_options& options = {});

  sim_board(sim_board&&) noexcept;
  sim_board& operator=(sim_board&&) noexcept;
  ~sim_board();  ///< stops the rail simulator

  const board_profile& profile() const { return *profile_; }
  const board_layout& layout() const { return layout_; }
  sim_paths paths() const;

  /// Starts / stops the rail simulator thread (idempotent).
  void start(rail_simulator_options options = {});
  void stop();
  bool running() const;
  /// The running simulator, nullptr when stopped.
  const rail_simulator* simulator() const { return simulator_.get(); }
  rail_simulator* simulator() { return simulator_.get(); }

 private:
  sim_board(std::shared_ptr<const board_profile> profile, std::string dir);
  static sim_board make(std::shared_ptr<const board_profile> profile, const std::string& dir,
                        const sim_create_options& options, bool from_file);
  std::shared_ptr<const board_profile> profile_;
  board_layout layout_;
  std::unique_ptr<rail_simulator> simulator_;
};

/// Copies (atomically replaces) the two programs from `tools_dir` into `<dir>/bin`.
void install_sim_tools(const std::string& tools_dir, const board_layout& layout);

}  // namespace jetperf::sim
