#include <jetperf/sim/sim_board.hpp>

#include <unistd.h>

#include <filesystem>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/nvpmodel_conf.hpp>
#include <jetperf/platform/own_executable.hpp>
#include <jetperf/platform/sysfs_paths.hpp>
#include <jetperf/sim/board_tree.hpp>
#include <jetperf/sim/nvpmodel_conf_writer.hpp>
#include <jetperf/sim/nvpmodel_program.hpp>
#include <jetperf/sim/profile_file.hpp>

#include "file_io.hpp"

namespace fs = std::filesystem;

namespace jetperf::sim {
namespace {

constexpr const char* nvpmodel_exe = "jetperf-sim-nvpmodel";
constexpr const char* tegrastats_exe = "jetperf-sim-tegrastats";

std::string find_tools_dir(const std::string& given) {
  if (!given.empty()) return given;
  const auto exe = platform::own_executable();
  if (!exe)
    throw platform_error("cannot locate the simulator programs: " + std::string(platform::paths::self_exe) + " unreadable");
  const fs::path d = fs::path(*exe).parent_path();
  for (const fs::path& c : {d, d / "sim", d / "daemon" / "sim", d / ".." / "lib" / "jetperf"})
    if (fs::exists(c / nvpmodel_exe) && fs::exists(c / tegrastats_exe)) return c.string();
  throw platform_error("cannot find " + std::string(nvpmodel_exe) + " beside " + d.string() +
                       " (set the simulator tools directory)");
}

void copy_program(const fs::path& from, const fs::path& to) {
  if (!fs::exists(from)) throw platform_error("simulator program missing: " + from.string());
  std::error_code same_ec;
  // Already installed from this build: nothing to do (create() runs at every daemon start).
  if (fs::exists(to) && fs::file_size(to, same_ec) == fs::file_size(from, same_ec) &&
      fs::last_write_time(to, same_ec) >= fs::last_write_time(from, same_ec))
    return;
  // Copy then rename, so a running copy of the old program is never overwritten in place.
  const fs::path tmp = to.string() + ".new";
  std::error_code ec;
  fs::copy_file(from, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec) throw platform_error("cannot copy " + from.string() + " to " + tmp.string() + ": " + ec.message());
  fs::permissions(tmp, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec, ec);
  fs::rename(tmp, to, ec);
  if (ec) throw platform_error("cannot install " + to.string() + ": " + ec.message());
}

}  // namespace

void install_sim_tools(const std::string& tools_dir, const board_layout& layout) {
  std::error_code ec;
  fs::create_directories(layout.bin_dir(), ec);
  copy_program(fs::path(tools_dir) / nvpmodel_exe, fs::path(layout.bin_dir()) / "nvpmodel");
  copy_program(fs::path(tools_dir) / tegrastats_exe, fs::path(layout.bin_dir()) / "tegrastats");
}

sim_board::sim_board(std::shared_ptr<const board_profile> profile, std::string dir)
    : profile_(std::move(profile)), layout_(std::move(dir)) {}
sim_board::sim_board(sim_board&&) noexcept = default;
sim_board& sim_board::operator=(sim_board&&) noexcept = default;
sim_board::~sim_board() { stop(); }

sim_board sim_board::create(const std::string& profile_name, const std::string& dir, const sim_create_options& options) {
  // A built-in profile lives as long as the process: shared without owning it.
  return make(std::shared_ptr<const board_profile>(std::shared_ptr<void>(), &find_profile(profile_name)), dir, options,
              false);
}

sim_board sim_board::create(board_profile profile, const std::string& dir, const sim_create_options& options) {
  return make(std::make_shared<const board_profile>(std::move(profile)), dir, options, true);
}

sim_board sim_board::make(std::shared_ptr<const board_profile> shared, const std::string& dir,
                          const sim_create_options& options, bool from_file) {
  const board_profile& p = *shared;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw platform_error("cannot create simulated board directory " + dir + ": " + ec.message());
  sim_board board(std::move(shared), fs::absolute(dir).lexically_normal().string());
  const board_layout& l = board.layout_;

  // A directory of another profile (or of another version of a profile file) is rebuilt from
  // scratch rather than mixed.
  const std::string json_text = from_file ? profile_json_text(p) : std::string();
  const auto previous = detail::read_text(l.profile_file());
  const auto previous_json = detail::read_text(l.profile_json_file());
  bool reset = options.reset;
  if ((previous && *previous != p.name + "\n") || previous_json.value_or("") != json_text) {
    fs::remove_all(l.root(), ec);
    reset = true;
  }
  if (from_file) detail::write_atomic(l.profile_json_file(), json_text);
  else fs::remove(l.profile_json_file(), ec);
  detail::write_atomic(l.profile_file(), p.name + "\n");
  const bool fresh = write_board_tree(p, l.root(), reset);

  const std::string conf_board = "/etc/nvpmodel/" + p.nvpmodel_conf_name;
  const std::string conf_text = nvpmodel_conf_text(p);
  detail::write_atomic(l.root() + conf_board, conf_text);
  detail::make_symlink(l.root() + conf_board, l.root() + "/etc/nvpmodel.conf");
  detail::make_symlink(l.root() + conf_board, l.nvpmodel_conf());

  install_sim_tools(find_tools_dir(options.tools_dir), l);

  const auto conf = platform::parse_nvpmodel_conf(conf_text);
  if (fresh || read_nvpmodel_status(l).mode < 0) {
    // Boot: the default mode is applied, as nvpmodel does at start-up.
    nvpmodel_status st;
    st.fan_mode = conf.default_fan_mode;
    write_nvpmodel_status(l, st);
    apply_nvpmodel_mode(l, conf, conf.default_mode);
  } else if (boot_nvpmodel(l, conf)) {
    // The daemon's start is the simulated board's boot: a mode confirmed for a reboot applies now.
    spdlog::info("simulated board: booted into power mode {}", read_nvpmodel_status(l).mode);
  }
  return board;
}

sim_paths sim_board::paths() const {
  return {layout_.dir(), layout_.root(), layout_.bin_dir() + "/nvpmodel", layout_.bin_dir() + "/tegrastats",
          layout_.nvpmodel_conf()};
}

void sim_board::start(rail_simulator_options options) {
  if (simulator_) return;
  simulator_ = std::make_unique<rail_simulator>(*profile_, layout_.root(), std::move(options));
  simulator_->start();
}

void sim_board::stop() {
  if (!simulator_) return;
  simulator_->stop();
  simulator_.reset();
}

bool sim_board::running() const { return simulator_ && simulator_->running(); }

}  // namespace jetperf::sim
