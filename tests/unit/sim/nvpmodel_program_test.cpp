// The built nvpmodel program, installed into a board, against README 8.1 behaviour.
#include <gtest/gtest.h>

#include <jetperf/platform/nvpmodel_output.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/board_layout.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;

TEST(sim_nvpmodel, query_prints_default_mode) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  auto r = sim_testing::run(board.paths().nvpmodel_path, {"-q"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "NV Power Mode: MODE_30W\n2\n");
  auto q = platform::parse_nvpmodel_query(r.out);
  EXPECT_EQ(q.mode_id, 2);
}

TEST(sim_nvpmodel, mode_change_writes_the_tree) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string gpu = "/sys/devices/platform/17000000.gpu/devfreq_dev";
  EXPECT_EQ(root.read_int(gpu + "/max_freq"), 624750000);
  EXPECT_EQ(root.read("/sys/devices/system/cpu/cpu8/online"), "0");

  // MODE_30W -> MAXN flips TPC gating (240 -> 0): a reboot prompt; no YES, nothing changes.
  auto refused = sim_testing::run(board.paths().nvpmodel_path, {"-m", "0"}, "no\n");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.out.find("YES"), std::string::npos) << refused.out;
  EXPECT_EQ(root.read_int(gpu + "/max_freq"), 624750000);

  // YES: as the real tool, the mode waits for the reboot; until the board boots nothing changes.
  auto r = sim_testing::run(board.paths().nvpmodel_path, {"-m", "0"}, "YES\n");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("reboot"), std::string::npos) << r.out;
  EXPECT_EQ(root.read_int(gpu + "/max_freq"), 624750000);
  EXPECT_EQ(root.read("/sys/devices/platform/gpu.0/tpc_pg_mask"), "240");
  EXPECT_EQ(platform::parse_nvpmodel_query(sim_testing::run(board.paths().nvpmodel_path, {"-q"}).out).mode_id, 2);
  EXPECT_EQ(read_nvpmodel_status(board.layout()).pending, 0);

  // The boot applies it, gating included.
  r = sim_testing::run(board.paths().nvpmodel_path, {"--boot"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(read_nvpmodel_status(board.layout()).pending, -1);
  EXPECT_EQ(root.read("/sys/devices/system/cpu/cpu8/online"), "1");
  EXPECT_EQ(root.read("/sys/devices/system/cpu/online"), "0-11");
  EXPECT_EQ(root.read_int(gpu + "/max_freq"), 1300500000);
  EXPECT_EQ(root.read_int("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq"), 2201600);
  EXPECT_EQ(root.read("/sys/devices/platform/gpu.0/tpc_pg_mask"), "0");
  EXPECT_EQ(platform::parse_nvpmodel_query(sim_testing::run(board.paths().nvpmodel_path, {"-q"}).out).mode_name, "MAXN");

  // MAXN -> MODE_50W keeps gating at 0: no prompt.
  r = sim_testing::run(board.paths().nvpmodel_path, {"-m", "3"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(root.read_int(gpu + "/max_freq"), 828750000);
  EXPECT_EQ(root.read_int("/sys/devices/system/cpu/cpu4/cpufreq/scaling_max_freq"), 1497600);
  EXPECT_LE(root.read_int(gpu + "/cur_freq"), 828750000);

  auto verbose = sim_testing::run(board.paths().nvpmodel_path, {"-q", "--verbose"});
  bool seen = false;
  for (const auto& v : platform::parse_nvpmodel_query_verbose(verbose.out)) {
    if (v.param == "GPU" && v.arg == "MAX_FREQ") {
      seen = true;
      EXPECT_EQ(v.real_value, "828750000");
      EXPECT_EQ(v.path, gpu + "/max_freq");
    }
  }
  EXPECT_TRUE(seen) << verbose.out;
}

TEST(sim_nvpmodel, nano_5w_offlines_cores_and_rounds_gpu_cap) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("nano", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  auto r = sim_testing::run(board.paths().nvpmodel_path, {"-m", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(root.read("/sys/devices/system/cpu/online"), "0-1");
  EXPECT_EQ(root.read("/sys/devices/system/cpu/cpu3/online"), "0");
  // 640 MHz is not a table entry: devfreq keeps the step under it.
  EXPECT_EQ(root.read_int("/sys/devices/gpu.0/devfreq/57000000.gpu/max_freq"), 614400000);
  EXPECT_EQ(root.read_int("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq"), 918000);
  EXPECT_EQ(root.read_int("/sys/kernel/nvpmodel_emc_cap/emc_iso_cap"), 1600000000);
}

TEST(sim_nvpmodel, unknown_mode_is_an_error) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("tx2", tmp);
  auto r = sim_testing::run(board.paths().nvpmodel_path, {"-m", "9"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(platform::nvpmodel_errors(r.out).empty()) << r.out;
  auto letters = sim_testing::run(board.paths().nvpmodel_path, {"-m", "abc"});
  EXPECT_NE(letters.exit_code, 0);
  EXPECT_FALSE(platform::nvpmodel_errors(letters.out).empty()) << letters.out;
  auto bad = sim_testing::run(board.paths().nvpmodel_path, {"--bogus"});
  EXPECT_NE(bad.exit_code, 0);
  auto missing = sim_testing::run(board.paths().nvpmodel_path, {"-q", "-f", tmp.path() + "/none.conf"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.out.find("NVPM ERROR:"), std::string::npos);
}

TEST(sim_nvpmodel, xavier_fan_mode) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("xavier-agx", tmp);
  auto q = platform::parse_nvpmodel_query(sim_testing::run(board.paths().nvpmodel_path, {"-q"}).out);
  EXPECT_EQ(q.fan_mode, "quiet");
  EXPECT_EQ(q.mode_name, "MODE_15W");
  EXPECT_EQ(sim_testing::run(board.paths().nvpmodel_path, {"-d", "cool"}).exit_code, 0);
  q = platform::parse_nvpmodel_query(sim_testing::run(board.paths().nvpmodel_path, {"-q"}).out);
  EXPECT_EQ(q.fan_mode, "cool");
  EXPECT_NE(sim_testing::run(board.paths().nvpmodel_path, {"-d", "loud"}).exit_code, 0);
  // Orin has no nvpmodel fan modes.
  auto orin = sim_testing::make_board("orin-agx", tmp);
  EXPECT_NE(sim_testing::run(orin.paths().nvpmodel_path, {"-d", "cool"}).exit_code, 0);
}

TEST(sim_nvpmodel, parse_verbose_dump_matches_the_profile) {
  test::temp_dir tmp;
  for (const auto& p : board_profiles()) {
    auto board = sim_testing::make_board(p.name, tmp);
    auto r = sim_testing::run(board.paths().nvpmodel_path, {"-p", "--verbose"});
    ASSERT_EQ(r.exit_code, 0) << p.name << r.out;
    EXPECT_NE(r.out.find("NVPM VERB: PM_CONFIG: DEFAULT="), std::string::npos);
    auto conf = platform::parse_nvpmodel_dump(r.out);
    EXPECT_EQ(conf.default_mode, p.default_mode) << p.name;
    ASSERT_EQ(conf.modes.size(), p.modes.size()) << p.name;
    for (size_t i = 0; i < p.modes.size(); ++i) {
      EXPECT_EQ(conf.modes[i].id, p.modes[i].id);
      EXPECT_EQ(conf.modes[i].name, p.modes[i].name);
    }
    const auto* gpu = conf.find_param("GPU");
    ASSERT_NE(gpu, nullptr) << p.name;
    ASSERT_NE(gpu->find_arg("MAX_FREQ"), nullptr);
    EXPECT_EQ(gpu->find_arg("MAX_FREQ")->path, p.gpu_devfreq_dir + "/max_freq");
  }
}

TEST(sim_nvpmodel, creating_the_board_again_boots_the_pending_mode) {
  // sim_board::create is the simulated board's boot (jetperfd's start): a mode confirmed with YES
  // takes effect there, and only there.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  auto r = sim_testing::run(board.paths().nvpmodel_path, {"-m", "1"}, "YES\n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(root.read("/sys/devices/platform/gpu.0/tpc_pg_mask"), "240");

  auto again = sim_testing::make_board("orin-agx", tmp);
  EXPECT_EQ(root.read("/sys/devices/platform/gpu.0/tpc_pg_mask"), "248");
  const auto status = read_nvpmodel_status(again.layout());
  EXPECT_EQ(status.mode, 1);
  EXPECT_EQ(status.pending, -1);
  EXPECT_EQ(platform::parse_nvpmodel_query(sim_testing::run(board.paths().nvpmodel_path, {"-q"}).out).mode_id, 1);

  // Without a pending mode a new start keeps the board as it is.
  auto third = sim_testing::make_board("orin-agx", tmp);
  EXPECT_EQ(read_nvpmodel_status(third.layout()).mode, 1);
}
