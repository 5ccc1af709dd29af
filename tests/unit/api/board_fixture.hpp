#pragma once
// api_fixture plus a real board_controller over a fixture AGX Orin tree (r35) and a fake
// nvpmodel in its own directory (so the tree holds only board files). Mode 2 (MODE_30W) is
// current; 0 and 1 need a reboot from it (their TPC power-gating masks differ).
#include <memory>
#include <string>

#include <jetperf/platform/board_controller.hpp>
#include <support/temp_dir.hpp>
#include <unit/platform/board_tree.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {

class board_fixture : public api_fixture {
 protected:
  board_fixture() {
    make_board_tree(tree_.path(), board_profile::orin_r35);
    platform::board_controller_options o;
    o.nvpmodel_program = make_fake_nvpmodel(bin_.path(), {"MAXN", "MODE_15W", "MODE_30W", "MODE_50W"}, 2, {1});
    o.nvpmodel_timeout = std::chrono::seconds(10);
    board_ = std::make_unique<platform::board_controller>(platform::sysfs_root(tree_.path()), o, nullptr);
  }

  api::router& make_board_router(std::function<nlohmann::json()> identity = {}) {
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = k_token;
    s.board = board_.get();
    s.board_identity = std::move(identity);
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }

  std::string tree() const { return dump_tree(tree_.path()); }
  std::string file(const std::string& path) const { return read_file(tree_.path() + path); }
  std::string nvpmodel_mode() const { return read_file(bin_.file("mode")); }

  static constexpr const char* gpu_dir = "/sys/devices/17000000.ga10b/devfreq_dev";
  static constexpr const char* cpu0_dir = "/sys/devices/system/cpu/cpufreq/policy0";
  static constexpr const char* emc_dir = "/sys/kernel/debug/bpmp/debug/clk/emc";

  temp_dir tree_;
  temp_dir bin_;
  std::unique_ptr<platform::board_controller> board_;
};

}  // namespace jetperf::test
