#include <jetperf/platform/board_controller.hpp>

#include <filesystem>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/memory_snapshot_journal.hpp>
#include <jetperf/platform/reboot_required.hpp>

#include "board_tree.hpp"
#include <support/temp_dir.hpp>

using namespace jetperf::platform;
using jetperf::test::board_profile;

namespace {

const std::string gpu_dir = "/sys/devices/17000000.ga10b/devfreq_dev";
const std::string emc_lock = "/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked";

struct orin {
  jetperf::test::temp_dir tmp;
  jetperf::test::temp_dir bin;
  memory_snapshot_journal journal;
  std::unique_ptr<board_controller> board;
  explicit orin(int mode = 2, board_profile p = board_profile::orin_r35) {
    jetperf::test::make_board_tree(tmp.path(), p);
    board_controller_options o;
    o.nvpmodel_program = jetperf::test::make_fake_nvpmodel(bin.path(), {"MAXN", "MODE_15W", "MODE_30W", "MODE_50W"}, mode, {1});
    o.nvpmodel_timeout = std::chrono::seconds(10);
    board = std::make_unique<board_controller>(sysfs_root(tmp.path()), o, &journal);
  }
  std::string file(const std::string& p) { return jetperf::test::read_file(tmp.path() + p); }
  std::string tree() { return jetperf::test::dump_tree(tmp.path()); }
  std::string mode() { return jetperf::test::read_file(bin.file("mode")); }
};

board_request request(std::optional<int> mode, std::optional<long long> gpu = {}, std::optional<long long> cpu = {},
                      std::optional<long long> emc = {}, bool force = false) {
  return {mode, gpu, cpu, emc, force};
}

// PUT /v1/clocks's "min" and "max", resolved as api::read_clock_request does (from clock_limits()).
enum class end { min, max };
long long at(const std::vector<long long>& offered, end e) { return e == end::min ? offered.front() : offered.back(); }

}  // namespace

TEST(board_controller, offered_and_describe) {
  orin b;
  auto o = b.board->offered();
  ASSERT_EQ(o.power_modes.size(), 4u);
  EXPECT_EQ(o.power_modes[1].name, "MODE_15W");
  EXPECT_EQ(o.gpu_freqs_hz.size(), 13u);
  EXPECT_EQ(o.cpu_freqs_khz.back(), 2201600);
  EXPECT_EQ(o.emc_freqs_hz.size(), 4u);
  EXPECT_EQ(o.memory_bytes, 64335836LL * 1024);
  EXPECT_EQ(o.has_cuda_device, true);
  auto d = b.board->describe();
  EXPECT_EQ(d.info.family, "t234");
  EXPECT_EQ(d.info.jetpack, "5.1.2");
  EXPECT_EQ(d.default_mode, 2);
  ASSERT_EQ(d.modes.size(), 4u);
  EXPECT_EQ(d.modes[1].gpu_max_hz, 420750000);
  EXPECT_EQ(d.modes[1].reboot_needed_from_default, true);
  EXPECT_EQ(d.modes[3].reboot_needed_from_default, false);
  EXPECT_EQ(d.cpu.clusters.size(), 3u);
  ASSERT_TRUE(d.paths.gpu.has_value());
  EXPECT_EQ(d.paths.gpu->freq_dir, gpu_dir);
  EXPECT_TRUE(d.has_fan);
  EXPECT_EQ(d.fan_pwm, 120);
  ASSERT_TRUE(d.emc && d.emc->setting);
  EXPECT_EQ(d.emc->setting->rate, 3199000000LL);
}

TEST(board_controller, apply_then_restore_round_trip) {
  orin b;
  const std::string before = b.tree();
  b.board->arm(42);
  ASSERT_EQ(b.journal.entries().size(), 1u);
  EXPECT_EQ(b.journal.entries()[0].job_id, 42);
  EXPECT_EQ(b.journal.entries()[0].state.power_mode, 2);
  b.board->arm(42);  // idempotent
  EXPECT_EQ(b.journal.entries().size(), 1u);
  auto got = b.board->apply_request(request(3, 828750000, 1497600, 3199000000LL));
  EXPECT_EQ(got.power_mode, 3);
  EXPECT_EQ(got.power_mode_name, "MODE_50W");
  EXPECT_EQ(got.gpu_freq_hz, 828750000);
  EXPECT_EQ(got.cpu_freq_khz, 1497600);
  EXPECT_EQ(got.emc_freq_hz, 3199000000LL);
  EXPECT_EQ(got.emc_locked, true);
  EXPECT_EQ(b.mode(), "3\n");
  EXPECT_EQ(b.file(gpu_dir + "/min_freq"), "828750000\n");
  const auto now = b.board->current();
  EXPECT_EQ(now.power_mode, got.power_mode);
  EXPECT_EQ(now.gpu_freq_hz, got.gpu_freq_hz);
  EXPECT_EQ(now.gpu_cur_hz, got.gpu_cur_hz);
  EXPECT_EQ(now.cpu_freq_khz, got.cpu_freq_khz);
  EXPECT_EQ(now.emc_freq_hz, got.emc_freq_hz);
  b.board->restore();
  EXPECT_EQ(b.mode(), "2\n");
  EXPECT_EQ(b.tree(), before);
  EXPECT_TRUE(b.journal.entries().empty());
  b.board->restore();  // not armed: no-op
}

// The job path: a typed setting in, the settings read back out.
TEST(board_controller, typed_apply_returns_what_the_board_reads_back) {
  orin b;
  jetperf::platform::board_setting want;
  want.power_mode = 3;
  want.gpu_freq_hz = 828750000;
  const auto got = b.board->apply(want);
  EXPECT_EQ(got.power_mode, 3);
  EXPECT_EQ(got.gpu_freq_hz, 828750000);
  // Left as is, but read back all the same: what the point ran at.
  ASSERT_TRUE(got.cpu_freq_khz.has_value());
  EXPECT_EQ(*got.cpu_freq_khz, b.board->current().cpu_freq_khz);
  EXPECT_EQ(b.file(gpu_dir + "/min_freq"), "828750000\n");
  jetperf::platform::board_setting bad;
  bad.cpu_freq_khz = 12345;
  const std::string before = b.tree();
  EXPECT_THROW(b.board->apply(bad), jetperf::validation_error);
  EXPECT_EQ(b.tree(), before);
  EXPECT_EQ(got.label(), "power_mode=3,emc_freq_hz=" + std::to_string(*got.emc_freq_hz) +
                             ",gpu_freq_hz=828750000,cpu_freq_khz=" + std::to_string(*got.cpu_freq_khz));
  EXPECT_EQ(jetperf::platform::board_setting{}.label(), "as_is");
}

TEST(board_controller, invalid_settings_change_nothing) {
  orin b;
  const std::string before = b.tree();
  try {
    b.board->apply_request(request(std::nullopt, 828750000, 12345));
    FAIL();
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "cpu_freq_khz");
    EXPECT_NE(std::string(e.what()).find("1497600"), std::string::npos);
  }
  EXPECT_THROW(b.board->apply_request(request(9)), jetperf::validation_error);
  EXPECT_THROW(b.board->apply_request(request(std::nullopt, 1)), jetperf::validation_error);
  EXPECT_EQ(b.tree(), before);
  EXPECT_EQ(b.mode(), "2\n");
}

TEST(board_controller, failure_in_the_middle_of_apply_restores) {
  orin b;
  // EMC lock file gone: GPU and CPU get written, then the EMC write fails.
  std::filesystem::remove(b.tmp.path() + emc_lock);
  const std::string before = b.tree();
  EXPECT_THROW(b.board->apply_request(request(3, 318750000, 729600, 2133000000)),
               jetperf::platform_error);
  EXPECT_EQ(b.tree(), before);
  EXPECT_EQ(b.mode(), "2\n");
}

TEST(board_controller, reboot_needing_mode_is_refused_unless_forced) {
  orin b;
  EXPECT_THROW(b.board->apply_request(request(1)), jetperf::conflict);
  EXPECT_EQ(b.mode(), "2\n");
  b.board->apply_request(request(1, {}, {}, {}, /*force=*/true));
  EXPECT_EQ(b.mode(), "1\n");
}

TEST(board_controller, job_reboots_into_a_gated_mode_and_restores_after_the_boots) {
  // The job path never forces: a mode that changes gating comes back as reboot_required with
  // nothing changed; reboot_into then switches with YES and the snapshot waits for the boot.
  orin b;
  std::vector<std::int64_t> reboots;
  board_controller_options o;
  o.nvpmodel_program = b.bin.file("nvpmodel");
  o.on_reboot = [&](std::int64_t mode) { reboots.push_back(mode); };
  auto board = std::make_unique<board_controller>(sysfs_root(b.tmp.path()), o, &b.journal);
  const std::string before = b.tree();
  board->arm(7);
  board_setting s;
  s.power_mode = 1;
  try {
    board->apply(s);
    ADD_FAILURE() << "apply switched to a mode that needs a reboot";
  } catch (const reboot_required& e) {
    EXPECT_EQ(e.power_mode(), 1);
    EXPECT_EQ(e.field(), "allow_reboot");
    EXPECT_NE(std::string(e.what()).find("TPC_PG_MASK 240 -> 248"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.mode(), "2\n");
  EXPECT_TRUE(reboots.empty());

  board->reboot_into(1);
  EXPECT_EQ(reboots, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(board->reboot_pending(), 1);
  EXPECT_NE(jetperf::test::read_file(b.bin.file("calls")).find("stdin:YES"), std::string::npos);
  // Going down: neither the job's end nor the shutdown restores, the snapshot stays open.
  board->restore();
  EXPECT_FALSE(board->restore_open_snapshot());
  ASSERT_EQ(b.journal.entries().size(), 1u);
  board.reset();

  // After the boot: armed again from the journal (not from the current settings).
  o.on_reboot = [&](std::int64_t mode) { reboots.push_back(mode); };
  board = std::make_unique<board_controller>(sysfs_root(b.tmp.path()), o, &b.journal);
  EXPECT_EQ(board->rearm(7), 1);
  EXPECT_EQ(b.journal.entries().size(), 1u);
  // The job ends: 1 -> 2 changes gating too, so the way back is one more reboot.
  board->restore();
  EXPECT_EQ(reboots, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(b.journal.entries().size(), 1u);
  board.reset();

  // The start-up after that boot finds the mode back and closes the snapshot.
  board = std::make_unique<board_controller>(sysfs_root(b.tmp.path()), o, &b.journal);
  EXPECT_TRUE(board->restore_open_snapshot());
  EXPECT_TRUE(b.journal.entries().empty());
  EXPECT_EQ(b.mode(), "2\n");
  EXPECT_EQ(b.tree(), before);
}

TEST(board_controller, offer_says_which_modes_need_a_reboot_from_which) {
  orin b;
  const auto o = b.board->offered();
  EXPECT_EQ(o.power_mode, 2);
  ASSERT_EQ(o.power_modes.size(), 4u);
  // Masks 0, 248, 240, 240: a switch needs a reboot where they differ.
  EXPECT_EQ(o.power_modes[0].reboot_from, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(o.power_modes[1].reboot_from, (std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(o.power_modes[3].reboot_from, (std::vector<std::int64_t>{0, 1}));
  // The mode in effect follows the controller's own switches, the way back included.
  b.board->arm(1);
  b.board->apply_request(request(3));
  EXPECT_EQ(b.board->offered().power_mode, 3);
  b.board->restore();
  EXPECT_EQ(b.mode(), "2\n");
  EXPECT_EQ(b.board->offered().power_mode, 2);
}

TEST(board_controller, restore_open_snapshot_after_a_crash) {
  jetperf::test::temp_dir tmp;
  jetperf::test::make_board_tree(tmp.path(), board_profile::nano_r32);
  memory_snapshot_journal journal;
  const std::string before = jetperf::test::dump_tree(tmp.path());
  {
    board_controller first(sysfs_root(tmp.path()), {}, &journal);
    EXPECT_TRUE(first.describe().modes.empty());  // the Nano tree has no nvpmodel.conf
    const auto offer = first.clock_frequencies();
    first.set_clocks({at(offer.gpu_hz, end::max), 918000, at(offer.emc_hz, end::min)});
    EXPECT_EQ(jetperf::test::read_file(tmp.path() + "/sys/kernel/debug/clk/override.emc/clk_state"), "1\n");
    // The daemon dies here, without restore().
  }
  ASSERT_EQ(journal.entries().size(), 1u);
  EXPECT_EQ(journal.entries()[0].reason, "api");
  board_controller second(sysfs_root(tmp.path()), {}, &journal);
  EXPECT_TRUE(second.restore_open_snapshot());
  EXPECT_EQ(jetperf::test::dump_tree(tmp.path()), before);
  EXPECT_TRUE(journal.entries().empty());
  EXPECT_FALSE(second.restore_open_snapshot());
  EXPECT_THROW(second.power_mode(), jetperf::unavailable);
  EXPECT_THROW(second.set_clocks({1, std::nullopt, std::nullopt}), jetperf::validation_error);
  EXPECT_TRUE(journal.entries().empty());  // a rejected request leaves no snapshot
}

TEST(board_controller, api_helpers_on_orin_r36) {
  orin b(2, board_profile::orin_r36);
  const std::string before = b.tree();
  EXPECT_EQ(b.board->power_mode().name, "MODE_30W");
  auto pm = b.board->set_power_mode(3, false);
  EXPECT_EQ(pm.id, 3);
  EXPECT_EQ(pm.default_mode, 2);
  auto c = b.board->set_clocks({at(b.board->clock_frequencies().gpu_hz, end::min), std::nullopt, std::nullopt});
  EXPECT_EQ(c.gpu_freq_hz, 114750000);
  EXPECT_EQ(b.board->clocks().armed, true);
  b.board->restore_clocks();
  EXPECT_EQ(b.tree(), before);
  EXPECT_EQ(b.mode(), "2\n");
}

TEST(board_controller, host_without_board_files) {
  jetperf::test::temp_dir tmp;
  board_controller host(sysfs_root(tmp.path()), {}, nullptr);
  EXPECT_EQ(host.info().family, "host");
  auto o = host.offered();
  EXPECT_TRUE(o.gpu_freqs_hz.empty());
  EXPECT_EQ(o.has_cuda_device, false);
  EXPECT_THROW(host.apply_request(request(std::nullopt, 1)), jetperf::validation_error);
  auto cur = host.current();
  EXPECT_FALSE(cur.gpu_freq_hz.has_value());
  host.arm(1);
  host.restore();
  EXPECT_FALSE(host.restore_open_snapshot());
}

// What the user set through the API is the baseline a job returns to; POST /v1/clocks/restore
// returns to the board as it was before the first API change.
TEST(board_controller, a_job_returns_the_board_to_what_the_api_set_and_restore_goes_back_to_boot) {
  orin b;
  const std::string boot = b.tree();
  b.board->set_clocks({at(b.board->clock_frequencies().gpu_hz, end::min), std::nullopt, std::nullopt});
  const std::string api_set = b.tree();
  ASSERT_NE(api_set, boot);
  ASSERT_EQ(b.journal.entries().size(), 1u);
  EXPECT_EQ(b.journal.entries()[0].reason, "api");

  b.board->arm(7);
  jetperf::platform::board_setting job;
  job.gpu_freq_hz = 1300500000;
  job.cpu_freq_khz = 1497600;
  b.board->apply(job);
  ASSERT_NE(b.tree(), api_set);
  b.board->restore();
  EXPECT_EQ(b.tree(), api_set) << "the job undid what the API had set";
  ASSERT_EQ(b.journal.entries().size(), 1u) << "the API's snapshot stays open for its restore";
  EXPECT_EQ(b.journal.entries()[0].job_id, 0);

  b.board->restore_clocks();
  EXPECT_EQ(b.tree(), boot);
  EXPECT_TRUE(b.journal.entries().empty());
}

TEST(board_controller, api_changes_wait_for_the_job_that_holds_the_board) {
  orin b;
  const std::string boot = b.tree();
  b.board->arm(3);
  // The check and the change are one step under the controller's lock: no change slips in
  // between the job's start and its first setting.
  const clock_request gpu_max{624750000, std::nullopt, std::nullopt};  // MODE_30W's cap
  EXPECT_THROW(b.board->set_clocks(gpu_max), jetperf::conflict);
  EXPECT_THROW(b.board->set_power_mode(3, false), jetperf::conflict);
  EXPECT_THROW(b.board->restore_clocks(), jetperf::conflict);
  EXPECT_EQ(b.tree(), boot);
  b.board->restore();
  EXPECT_NO_THROW(b.board->set_clocks(gpu_max));
}

namespace {

// An INA3221 on the mainline hwmon driver, as r34+ boards have it (shared/jetson README).
const std::string ina_dir = "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3";

void add_ina3221(const std::string& root) {
  std::filesystem::create_directories(root + ina_dir);
  jetperf::test::write_file(root + "/sys/bus/i2c/devices/1-0040/name", "ina3221\n");
  jetperf::test::write_file(root + ina_dir + "/name", "ina3221\n");
  jetperf::test::write_file(root + ina_dir + "/samples", "16\n");
  jetperf::test::write_file(root + ina_dir + "/update_interval", "20\n");
}

}  // namespace

TEST(board_controller, a_job_sets_the_sensors_averaging_and_its_end_puts_it_back) {
  jetperf::test::temp_dir tmp, bin;
  jetperf::test::make_board_tree(tmp.path(), board_profile::orin_r35);
  add_ina3221(tmp.path());
  memory_snapshot_journal journal;
  board_controller_options o;
  o.nvpmodel_program = jetperf::test::make_fake_nvpmodel(bin.path(), {"MAXN", "MODE_15W", "MODE_30W", "MODE_50W"}, 2, {1});
  board_controller board(sysfs_root(tmp.path()), o, &journal);
  const auto file = [&] { return jetperf::test::read_file(tmp.path() + ina_dir + "/samples"); };

  EXPECT_EQ(board.offered().sensor_samples, (std::vector<std::int64_t>{1, 4, 16, 64, 128, 256, 512, 1024}));
  const auto before = board.sensor_averaging();
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].dir, ina_dir);
  EXPECT_EQ(before[0].samples, 16);
  EXPECT_EQ(before[0].update_interval_ms, 20);
  // Only a job that holds the board (its snapshot puts the count back) may change it.
  EXPECT_THROW(board.set_sensor_samples(4), jetperf::conflict);
  board.arm(7);
  ASSERT_EQ(journal.entries().size(), 1u);
  ASSERT_EQ(journal.entries()[0].state.sensors.size(), 1u);
  EXPECT_EQ(journal.entries()[0].state.sensors[0].samples, 16);
  EXPECT_THROW(board.set_sensor_samples(5), jetperf::validation_error);
  EXPECT_EQ(file(), "16\n");
  const auto after = board.set_sensor_samples(4);
  EXPECT_EQ(file(), "4\n");
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].samples, 4);
  // A point puts it back itself; the job's end does too.
  board.restore_sensor_averaging(before);
  EXPECT_EQ(file(), "16\n");
  board.set_sensor_samples(1);
  board.restore();
  EXPECT_EQ(file(), "16\n");
  EXPECT_TRUE(journal.entries().empty());

  // After a crash the start-up puts it back from the journal.
  board.arm(8);
  board.set_sensor_samples(64);
  board_controller second(sysfs_root(tmp.path()), o, &journal);
  EXPECT_TRUE(second.restore_open_snapshot());
  EXPECT_EQ(file(), "16\n");
}

TEST(board_controller, a_board_without_an_averaging_count_offers_none_and_refuses_one) {
  orin b;  // the fixture's INA3221 has no hwmon samples file
  EXPECT_TRUE(b.board->offered().sensor_samples.empty());
  EXPECT_TRUE(b.board->sensor_averaging().empty());
  b.board->arm(1);
  const std::string before = b.tree();
  try {
    b.board->set_sensor_samples(4);
    FAIL() << "no averaging count to set";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "sensor_samples");
  }
  EXPECT_EQ(b.tree(), before);
}

// A power mode's caps (nvpmodel.conf's MAX_FREQ): the offer keeps every mode's values and says
// each mode's caps; PUT /v1/clocks' "min" and "max" are the mode in effect's limits, and a clock
// above its cap is refused naming the field and the cap, before anything is written.
TEST(board_controller, clocks_above_the_mode_cap_are_refused_and_max_is_the_mode_s) {
  orin b;  // mode 2, MODE_30W: GPU MAX_FREQ 624750000
  const auto o = b.board->offered();
  ASSERT_EQ(o.power_modes.size(), 4u);
  EXPECT_EQ(o.caps_in(2).gpu_freq_hz, 624750000);
  EXPECT_EQ(o.caps_in(1).gpu_freq_hz, 420750000);
  EXPECT_FALSE(o.caps_in(0).gpu_freq_hz) << "MAXN's -1 is no cap";
  EXPECT_EQ(o.caps_in().gpu_freq_hz, 624750000);
  EXPECT_EQ(o.gpu_freqs_hz.back(), 1300500000);
  EXPECT_EQ(b.board->clock_limits().gpu_hz.back(), 624750000);
  EXPECT_EQ(b.board->clock_frequencies().gpu_hz.back(), 1300500000);
  const std::string before = b.tree();
  try {
    b.board->set_clocks({1300500000, std::nullopt, std::nullopt});
    FAIL() << "1300500000 Hz was accepted in MODE_30W";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "gpu");
    EXPECT_EQ(e.code(), "above_cap");
    EXPECT_NE(std::string(e.what()).find("above the cap of power mode 2 (MODE_30W), 624750000"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(b.tree(), before);
  EXPECT_TRUE(b.journal.entries().empty()) << "a refused request armed a snapshot";
  const auto c = b.board->set_clocks({at(b.board->clock_limits().gpu_hz, end::max), std::nullopt, std::nullopt});
  EXPECT_EQ(c.gpu_freq_hz, 624750000);
  b.board->restore_clocks();
  EXPECT_EQ(b.tree(), before);
}

TEST(board_controller, a_mode_s_no_limit_is_no_cap_not_a_number) {
  orin b;
  const auto d = b.board->describe();
  ASSERT_EQ(d.modes.size(), 4u);
  EXPECT_FALSE(d.modes[0].gpu_max_hz) << *d.modes[0].gpu_max_hz;  // GPU MAX_FREQ -1, not 2147483647
  EXPECT_TRUE(d.modes[0].gpu_uncapped);
  EXPECT_EQ(d.modes[1].gpu_max_hz, 420750000);
  EXPECT_FALSE(d.modes[1].gpu_uncapped);
  EXPECT_FALSE(d.modes[1].emc_max_hz);  // the test conf names no EMC cap
  EXPECT_FALSE(d.modes[1].emc_uncapped);
}

// A BPMP EMC without a rate table offers its min and max rate: a max above the mode's cap once
// left only the min ("204-204 MHz, 1 step" on a Xavier NX whose EMC ran at 1065.6 MHz). The
// modes' EMC caps are rates it runs at; the mode in effect's cap bounds what a lock may ask.
TEST(board_controller, emc_without_a_rate_table_offers_its_range_and_the_modes_caps) {
  jetperf::test::temp_dir tmp, bin;
  jetperf::test::make_board_tree(tmp.path(), board_profile::xavier_r32);  // EMC 204 .. 2133 MHz, no table
  jetperf::test::write_file(tmp.path() + "/etc/nvpmodel.conf",
                            "< PARAM TYPE=CLOCK NAME=EMC >\n"
                            "MAX_FREQ /sys/kernel/nvpmodel_emc_cap/emc_iso_cap\n"
                            "< POWER_MODEL ID=0 NAME=MODE_10W_DESKTOP >\nEMC MAX_FREQ 1600000000\n"
                            "< POWER_MODEL ID=1 NAME=MODE_20W_6CORE >\nEMC MAX_FREQ 1866000000\n"
                            "< POWER_MODEL ID=2 NAME=MAXN >\nEMC MAX_FREQ 0\n"
                            "< PM_CONFIG DEFAULT=0 >\n");
  jetperf::test::write_file(tmp.path() + "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "1600000000\n");
  board_controller_options o;
  o.nvpmodel_program = jetperf::test::make_fake_nvpmodel(bin.path(), {"MODE_10W_DESKTOP", "MODE_20W_6CORE", "MAXN"}, 0, {});
  board_controller board(sysfs_root(tmp.path()), o, nullptr);
  const std::vector<long long> all{204000000, 1600000000, 1866000000, 2133000000};
  const auto d = board.describe();
  ASSERT_TRUE(d.emc);
  EXPECT_EQ(d.emc->available_hz, all);
  EXPECT_EQ(board.offered().emc_freqs_hz, std::vector<std::int64_t>(all.begin(), all.end()));
  EXPECT_EQ(board.offered().caps_in().emc_freq_hz, 1600000000);
  EXPECT_EQ(board.clock_limits().emc_hz, (std::vector<long long>{204000000, 1600000000}));
  EXPECT_TRUE(d.modes[2].emc_uncapped);
}
