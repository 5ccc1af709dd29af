#include <jetperf/platform/board_info.hpp>

#include <jetperf/platform/board_discovery.hpp>

#include <gtest/gtest.h>

#include "board_tree.hpp"
#include <support/temp_dir.hpp>

using namespace jetperf::platform;
using jetperf::test::board_profile;

TEST(board_info, l4t_and_jetpack_table) {
  EXPECT_EQ(parse_l4t_release("# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref"), "35.4.1");
  EXPECT_EQ(parse_l4t_release("# R32 (release), REVISION: 7.1, GCID: 1"), "32.7.1");
  EXPECT_EQ(parse_l4t_release("# R36 (release), REVISION: 3.0, GCID"), "36.3.0");
  EXPECT_EQ(parse_l4t_release("garbage"), "");
  EXPECT_EQ(jetpack_for_l4t("35.4.1"), "5.1.2");
  EXPECT_EQ(jetpack_for_l4t("36.3.0"), "6.0");
  EXPECT_EQ(jetpack_for_l4t("36.4.0"), "6.1");
  EXPECT_EQ(jetpack_for_l4t("36.4.3"), "6.2");
  EXPECT_EQ(jetpack_for_l4t("32.7.1"), "4.6.1");
  EXPECT_EQ(jetpack_for_l4t("32.7.6"), "4.6.6");
  EXPECT_EQ(jetpack_for_l4t("32.6.1"), "4.6");
  EXPECT_EQ(jetpack_for_l4t("35.1.0"), "5.0.2");
  EXPECT_EQ(jetpack_for_l4t("35.6.2"), "5.1.5");
  EXPECT_EQ(jetpack_for_l4t("36.2.0"), "6.0 DP");
  EXPECT_EQ(jetpack_for_l4t("39.1"), "7.2");
  EXPECT_EQ(jetpack_for_l4t("31.0"), "");
}

TEST(board_info, detects_orin_r35) {
  jetperf::test::temp_dir tmp;
  jetperf::test::make_board_tree(tmp.path(), board_profile::orin_r35);
  auto b = detect_board(sysfs_root(tmp.path()));
  EXPECT_TRUE(b.jetson);
  EXPECT_EQ(b.family, "t234");
  EXPECT_EQ(b.soc, "tegra234");
  EXPECT_EQ(b.module, "AGX Orin");
  EXPECT_EQ(b.model, "NVIDIA Jetson AGX Orin Developer Kit");
  EXPECT_EQ(b.compatible.size(), 3u);
  EXPECT_EQ(b.l4t, "35.4.1");
  EXPECT_EQ(b.l4t_major, 35);
  EXPECT_EQ(b.jetpack, "5.1.2");
}

TEST(board_info, detects_xavier_and_nano_and_host) {
  jetperf::test::temp_dir x, n, h;
  jetperf::test::make_board_tree(x.path(), board_profile::xavier_r32);
  jetperf::test::make_board_tree(n.path(), board_profile::nano_r32);
  auto bx = detect_board(sysfs_root(x.path()));
  EXPECT_EQ(bx.family, "t194");
  EXPECT_EQ(bx.l4t, "32.5.1");
  EXPECT_EQ(bx.jetpack, "4.5.1");
  auto bn = detect_board(sysfs_root(n.path()));
  EXPECT_EQ(bn.family, "t210");
  EXPECT_EQ(bn.module, "Nano");
  EXPECT_EQ(bn.jetpack, "4.6.1");
  auto bh = detect_board(sysfs_root(h.path()));
  EXPECT_FALSE(bh.jetson);
  EXPECT_EQ(bh.family, "host");
  EXPECT_EQ(bh.l4t, "");
  EXPECT_EQ(detect_board(sysfs_root(h.path()), [] { return true; }).family, "dgpu");
  EXPECT_EQ(detect_board(sysfs_root(n.path()), [] { return true; }).family, "t210");  // a Jetson stays a Jetson
}

TEST(board_discovery, orin_r35_paths) {
  jetperf::test::temp_dir tmp;
  jetperf::test::make_board_tree(tmp.path(), board_profile::orin_r35);
  sysfs_root root(tmp.path());
  auto d = discover_board(root, detect_board(root));
  ASSERT_TRUE(d.gpu);
  EXPECT_EQ(d.gpu->of_name, "ga10b");
  EXPECT_EQ(d.gpu->freq_dir, "/sys/devices/17000000.ga10b/devfreq_dev");
  EXPECT_EQ(d.gpu->device_dir, "/sys/devices/17000000.ga10b");
  ASSERT_EQ(d.clusters.size(), 3u);
  EXPECT_EQ(d.clusters[1].cores, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(d.clusters[2].cpufreq_dir, "/sys/devices/system/cpu/cpufreq/policy8");
  EXPECT_EQ(d.cores.size(), 12u);
  EXPECT_EQ(d.emc.kind, "bpmp");
  EXPECT_EQ(d.emc.lock, "/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked");
  EXPECT_EQ(d.emc.cap, "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap");
  EXPECT_EQ(d.fan_pwm, "/sys/class/hwmon/hwmon1/pwm1");
}

TEST(board_discovery, orin_r36_absolute_devfreq_link_and_clk_cap) {
  jetperf::test::temp_dir tmp;
  jetperf::test::make_board_tree(tmp.path(), board_profile::orin_r36);
  sysfs_root root(tmp.path());
  auto d = discover_board(root, detect_board(root));
  ASSERT_TRUE(d.gpu);
  EXPECT_EQ(d.gpu->of_name, "gpu");
  EXPECT_EQ(d.gpu->freq_dir, "/sys/devices/platform/17000000.gpu/devfreq_dev");
  EXPECT_EQ(d.emc.cap, "/sys/kernel/nvpmodel_clk_cap/emc");
  EXPECT_EQ(d.emc.possible, "");
}

TEST(board_discovery, xavier_and_nano_paths) {
  jetperf::test::temp_dir x, n;
  jetperf::test::make_board_tree(x.path(), board_profile::xavier_r32);
  jetperf::test::make_board_tree(n.path(), board_profile::nano_r32);
  sysfs_root rx(x.path()), rn(n.path());
  auto dx = discover_board(rx, detect_board(rx));
  ASSERT_TRUE(dx.gpu);
  EXPECT_EQ(dx.gpu->freq_dir, "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b");
  EXPECT_EQ(dx.clusters.size(), 4u);
  EXPECT_EQ(dx.fan_pwm, "/sys/devices/pwm-fan/target_pwm");
  auto dn = discover_board(rn, detect_board(rn));
  ASSERT_TRUE(dn.gpu);
  EXPECT_EQ(dn.gpu->freq_dir, "/sys/devices/57000000.gpu/devfreq/57000000.gpu");
  EXPECT_EQ(dn.clusters.size(), 1u);
  EXPECT_EQ(dn.emc.kind, "t210");
  EXPECT_EQ(dn.emc.update, "/sys/kernel/debug/clk/override.emc/clk_update_rate");
  EXPECT_EQ(dn.emc.min_rate, "/sys/kernel/debug/tegra_bwmgr/emc_min_rate");
  EXPECT_EQ(parse_cpu_list("0,3-5\n"), (std::vector<int>{0, 3, 4, 5}));
  EXPECT_EQ(parse_cpu_list("4 5 6 7"), (std::vector<int>{4, 5, 6, 7}));
}
