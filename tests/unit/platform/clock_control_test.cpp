#include <jetperf/platform/clock_control.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/board_state.hpp>

#include "board_tree.hpp"
#include <support/temp_dir.hpp>

using namespace jetperf::platform;
using jetperf::test::board_profile;

namespace {

struct board {
  jetperf::test::temp_dir tmp;
  sysfs_root root;
  clock_control clocks;
  explicit board(board_profile p) : root(init(tmp.path(), p)), clocks(root, discover_board(root, detect_board(root))) {}
  static std::string init(const std::string& dir, board_profile p) {
    jetperf::test::make_board_tree(dir, p);
    return dir;
  }
  std::string file(const std::string& board_path) { return jetperf::test::read_file(tmp.path() + board_path); }
};

const std::string orin_gpu = "/sys/devices/17000000.ga10b/devfreq_dev";

}  // namespace

TEST(clock_control, gpu_lock_and_unlock_read_back) {
  board b(board_profile::orin_r35);
  auto avail = b.clocks.gpu_available_hz();
  ASSERT_EQ(avail.size(), 13u);
  EXPECT_EQ(avail.front(), 114750000);
  b.clocks.lock_gpu(624750000);
  EXPECT_EQ(b.file(orin_gpu + "/min_freq"), "624750000\n");
  EXPECT_EQ(b.file(orin_gpu + "/max_freq"), "624750000\n");
  auto r = b.clocks.gpu_range();
  EXPECT_EQ(r.min, 624750000);
  EXPECT_EQ(r.max, 624750000);
  // Going down past the current min, then up past the current max: both orders keep min <= max.
  b.clocks.lock_gpu(114750000);
  EXPECT_EQ(b.clocks.gpu_range().max, 114750000);
  b.clocks.lock_gpu(1300500000);
  EXPECT_EQ(b.clocks.gpu_range().min, 1300500000);
  b.clocks.set_gpu_range({114750000, 1300500000, "nvhost_podgov"});
  EXPECT_EQ(b.clocks.gpu_range().min, 114750000);
  EXPECT_EQ(b.clocks.gpu_range().governor, "nvhost_podgov");
}

TEST(clock_control, value_not_offered_lists_valid_ones) {
  board b(board_profile::orin_r35);
  try {
    b.clocks.lock_gpu(600000000);
    FAIL() << "expected validation_error";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "gpu_freq_hz");
    EXPECT_NE(std::string(e.what()).find("624750000"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.file(orin_gpu + "/max_freq"), "1300500000\n");  // untouched
  EXPECT_THROW(b.clocks.lock_cpu(1000000), jetperf::validation_error);
  EXPECT_THROW(b.clocks.lock_emc(1000), jetperf::validation_error);
  EXPECT_EQ(check_frequency(5, {1, 5, 9}, "f"), 5);
  EXPECT_THROW(check_frequency(2, {1, 5, 9}, "f"), jetperf::validation_error);
  try {
    check_frequency(5, {}, "f");
    FAIL() << "expected validation_error";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(std::string(e.what()), "this board offers no f control");
  }
}

TEST(clock_control, read_back_mismatch_names_the_file) {
  board b(board_profile::orin_r35);
  // A directory where the attribute should be: the write fails and names the path.
  std::filesystem::remove(b.tmp.path() + orin_gpu + "/min_freq");
  std::filesystem::create_directory(b.tmp.path() + orin_gpu + "/min_freq");
  try {
    b.clocks.set_gpu_range({114750000, 114750000, {}});
    FAIL();
  } catch (const jetperf::platform_error& e) {
    EXPECT_NE(std::string(e.what()).find(orin_gpu + "/min_freq"), std::string::npos) << e.what();
  }
}

TEST(clock_control, cpu_clusters_cores_emc_fan) {
  board b(board_profile::orin_r35);
  EXPECT_EQ(b.clocks.cpu_available_khz(), (std::vector<long long>{115200, 729600, 1497600, 2201600}));
  b.clocks.set_core_online(11, false);
  EXPECT_EQ(b.file("/sys/devices/system/cpu/cpu11/online"), "0\n");
  b.clocks.lock_cpu(1497600);
  for (int p : {0, 4, 8}) {
    const std::string d = "/sys/devices/system/cpu/cpufreq/policy" + std::to_string(p);
    EXPECT_EQ(b.file(d + "/scaling_min_freq"), "1497600\n");
    EXPECT_EQ(b.file(d + "/scaling_max_freq"), "1497600\n");
  }
  EXPECT_EQ(b.clocks.emc_available_hz(), (std::vector<long long>{204000000, 665600000, 2133000000, 3199000000}));
  b.clocks.lock_emc(2133000000);
  EXPECT_EQ(b.file("/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked"), "1\n");
  EXPECT_EQ(b.clocks.emc().rate, 2133000000);
  EXPECT_TRUE(b.clocks.emc().locked);
  b.clocks.unlock_emc();
  EXPECT_FALSE(b.clocks.emc().locked);
  // The rates are every power mode's: the cap of the mode in effect is the board controller's to
  // hold (mode_caps.hpp), so a cap file does not shorten the list.
  jetperf::test::write_file(b.tmp.path() + "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "2133000000\n");
  EXPECT_EQ(b.clocks.emc_available_hz(), (std::vector<long long>{204000000, 665600000, 2133000000, 3199000000}));
  EXPECT_THROW(b.clocks.lock_emc(3199000001), jetperf::validation_error);
  b.clocks.set_fan_pwm(255);
  EXPECT_EQ(b.clocks.fan_pwm(), 255);
  EXPECT_THROW(b.clocks.set_fan_pwm(300), jetperf::validation_error);
  EXPECT_THROW(b.clocks.set_core_online(0, false), jetperf::platform_error);  // cpu0 has no online file
}

// Without a rate table the EMC offers its min and max rate and, between them, the modes' caps
// (set by the board controller from nvpmodel.conf).
TEST(clock_control, emc_without_a_table_offers_its_range_and_the_modes_caps) {
  board b(board_profile::xavier_r32);  // BPMP EMC 204 .. 2133 MHz
  EXPECT_EQ(b.clocks.emc_available_hz(), (std::vector<long long>{204000000, 2133000000}));
  b.clocks.set_emc_mode_caps({1600000000, 1331200000, 2133000000, 4266000000});
  EXPECT_EQ(b.clocks.emc_available_hz(), (std::vector<long long>{204000000, 1331200000, 1600000000, 2133000000}));
  b.clocks.lock_emc(1600000000);
  EXPECT_EQ(b.file("/sys/kernel/debug/bpmp/debug/clk/emc/rate"), "1600000000\n");
}

TEST(clock_control, nano_emc_uses_override_files) {
  board b(board_profile::nano_r32);
  EXPECT_EQ(b.clocks.emc_available_hz(), (std::vector<long long>{204000000, 1600000000}));
  b.clocks.lock_emc(204000000);
  EXPECT_EQ(b.file("/sys/kernel/debug/clk/override.emc/clk_update_rate"), "204000000\n");
  EXPECT_EQ(b.file("/sys/kernel/debug/clk/override.emc/clk_state"), "1\n");
  b.clocks.lock_gpu(921600000);
  EXPECT_EQ(b.file("/sys/devices/57000000.gpu/devfreq/57000000.gpu/max_freq"), "921600000\n");
}

TEST(board_state, snapshot_restore_round_trip_leaves_files_equal) {
  for (auto p : {board_profile::orin_r35, board_profile::orin_r36, board_profile::xavier_r32, board_profile::nano_r32}) {
    board b(p);
    const std::string before = jetperf::test::dump_tree(b.tmp.path());
    const auto state = capture_board_state(b.clocks, 2);
    // Change everything the snapshot covers.
    b.clocks.lock_gpu(b.clocks.gpu_available_hz()[1]);
    b.clocks.lock_cpu(b.clocks.cpu_available_khz()[1]);
    b.clocks.lock_emc(b.clocks.emc_available_hz().front());
    b.clocks.set_core_online(b.clocks.discovery().cores.back(), false);
    b.clocks.set_fan_pwm(77);
    ASSERT_NE(jetperf::test::dump_tree(b.tmp.path()), before);
    EXPECT_EQ(state.power_mode, 2);
    restore_board_clocks(b.clocks, state);
    EXPECT_EQ(jetperf::test::dump_tree(b.tmp.path()), before);
  }
}

// The BPMP's rate file reads the clock's rate: a governor's change under way may land just after
// the request, and the BPMP then sets the locked rate. The lock is read back after its wait, not
// at once (the sensor card on sim:xavier-agx once failed on "wrote '1331200000' ... but it reads
// back '800000000'"); a rate that never arrives still fails, naming both.
TEST(clock_control, an_emc_lock_is_read_back_after_the_clock_settles) {
  board b(board_profile::orin_r35);
  const std::string rate = b.tmp.path() + "/sys/kernel/debug/bpmp/debug/clk/emc/rate";
  // What the file holds, as a number (a write has no newline, the tree's files have one).
  const auto reads = [&rate](long long hz) {
    try {
      return std::stoll(jetperf::test::read_file(rate)) == hz;
    } catch (const std::exception&) {
      return false;  // read mid-write
    }
  };
  std::atomic<bool> done{false};
  std::thread governor([&] {
    // As soon as the request is in the file: the governor's older choice lands, then the lock's.
    while (!done && !reads(2133000000)) std::this_thread::sleep_for(std::chrono::microseconds(50));
    jetperf::test::write_file(rate, "665600000\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    jetperf::test::write_file(rate, "2133000000\n");
  });
  EXPECT_NO_THROW(b.clocks.lock_emc(2133000000));
  done = true;
  governor.join();
  EXPECT_EQ(b.clocks.emc().rate, 2133000000);
  // A rate that never comes (a file that keeps nothing): the error says what was asked and what reads.
  std::filesystem::remove(rate);
  std::filesystem::create_symlink("/dev/null", rate);
  try {
    b.clocks.lock_emc(3199000000);
    ADD_FAILURE() << "a lock that never read back succeeded";
  } catch (const jetperf::platform_error& e) {
    EXPECT_NE(std::string(e.what()).find("wrote '3199000000'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("but it reads back ''"), std::string::npos) << e.what();
  }
}
