// The rail simulator: CPU rail follows a given CPU load (workload_load_test.cpp: the job's threads), GPU rail follows the GPU clock and load,
// rail files stay consistent (P = V * I), devfreq cur_freq stays within min/max.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/work_activity.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/host_cpu_stat.hpp>
#include <jetperf/sim/power_model.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;

namespace {

double rail(const rail_simulator& sim, const std::string& name) {
  for (const auto& [label, mw] : sim.rails_mw())
    if (label == name) return mw;
  return -1;
}

rail_simulator_options fixed_load(const double* load) {
  rail_simulator_options o;
  o.noise = 0;
  o.host_load = [load] { return std::vector<double>{*load, *load}; };
  return o;
}

}  // namespace

TEST(rail_simulator, cpu_rail_follows_cpu_load) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  // MAXN changes TPC gating: confirmed for the reboot, then the boot applies it.
  ASSERT_EQ(sim_testing::run(board.paths().nvpmodel_path, {"-m", "0"}, "YES\n").exit_code, 0);
  ASSERT_EQ(sim_testing::run(board.paths().nvpmodel_path, {"--boot"}).exit_code, 0);
  double load = 0.0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, fixed_load(&load));
  sim.step(0.02);
  const double idle_cpu = rail(sim, "VDD_CPU_CV"), idle_total = sim.total_mw();
  load = 1.0;
  sim.step(0.02);
  const double busy_cpu = rail(sim, "VDD_CPU_CV"), busy_total = sim.total_mw();
  // Orin AGX: idle 5-8 W, all 12 cores busy at MAXN adds 10-15 W.
  EXPECT_GT(idle_total, 5000);
  EXPECT_LT(idle_total, 8000);
  EXPECT_GT(busy_cpu - idle_cpu, 10000);
  EXPECT_LT(busy_cpu - idle_cpu, 15000);
  EXPECT_GT(busy_total, idle_total + 10000);
  // schedutil raised the clock to the cap.
  platform::sysfs_root root(board.paths().sysfs_root);
  EXPECT_EQ(root.read_int("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"), 2201600);
  // The hwmon files hold V and I whose product is the rail power.
  const std::string hw = "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3";
  const double mw = root.read_int(hw + "/in2_input") * root.read_int(hw + "/curr2_input") / 1000.0;
  EXPECT_NEAR(mw, busy_cpu, 5.0);
  EXPECT_EQ(root.read("/sys/bus/i2c/devices/1-0041/hwmon/hwmon4/curr1_input"), "0");  // NC channel
}

TEST(rail_simulator, gpu_rail_follows_gpu_clock) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("xavier-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string df = "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b";
  double load = 0.0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, fixed_load(&load));
  root.write("/sys/devices/gpu.0/load", "800");
  root.write(df + "/min_freq", "318750000");
  root.write(df + "/max_freq", "318750000");
  sim.step(0.02);
  const double low = rail(sim, "GPU");
  EXPECT_EQ(root.read_int(df + "/cur_freq"), 318750000);
  root.write(df + "/max_freq", "1377000000");
  root.write(df + "/min_freq", "1377000000");
  sim.step(0.02);
  const double high = rail(sim, "GPU");
  EXPECT_EQ(root.read_int(df + "/cur_freq"), 1377000000);
  EXPECT_GT(high, 3 * low);
  // IIO layout: in_power is the rail power in mW.
  EXPECT_NEAR(static_cast<double>(root.read_int("/sys/bus/i2c/devices/1-0040/iio:device0/in_power0_input")), high, 1.0);
  // Idle and rail-gated: no GPU power.
  root.write("/sys/devices/gpu.0/load", "0");
  sim.step(0.02);
  EXPECT_EQ(rail(sim, "GPU"), 0.0);
  EXPECT_EQ(root.read("/sys/devices/17000000.gv11b/is_railgated"), "yes");
}

TEST(rail_simulator, temperatures_rise_with_power) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("nano", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  double load = 0.0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, fixed_load(&load));
  for (int i = 0; i < 50; ++i) sim.step(2.0);  // settle at idle
  const long long idle = root.read_int("/sys/class/thermal/thermal_zone1/temp");
  load = 1.0;
  root.write("/sys/devices/gpu.0/load", "1000");
  for (int i = 0; i < 50; ++i) sim.step(2.0);
  const long long busy = root.read_int("/sys/class/thermal/thermal_zone1/temp");
  EXPECT_GT(busy, idle + 3000);
  EXPECT_EQ(root.read_int("/sys/class/thermal/thermal_zone2/temp"), 100000);  // PMIC trip value
}

// /proc/stat as the kernel writes it, with every CPU's counters advanced by `busy` and `idle`
// jiffies per call: host_cpu_stat turns the deltas into each CPU's busy fraction.
class fake_proc_stat {
 public:
  explicit fake_proc_stat(std::string path, int cpus) : path_(std::move(path)), busy_(cpus, 0), idle_(cpus, 0) {}
  void advance(unsigned long long busy, unsigned long long idle) {
    std::string text = "cpu  0 0 0 0 0 0 0 0 0 0\n";
    for (std::size_t i = 0; i < busy_.size(); ++i) {
      busy_[i] += busy;
      idle_[i] += idle;
      // user nice system idle iowait irq softirq steal guest guest_nice
      text += "cpu" + std::to_string(i) + " " + std::to_string(busy_[i]) + " 0 0 " + std::to_string(idle_[i]) +
              " 0 0 0 0 0 0\n";
    }
    text += "intr 0\nctxt 0\n";
    test::write_file(path_, text);
  }

 private:
  std::string path_;
  std::vector<unsigned long long> busy_, idle_;
};

TEST(host_cpu_stat, busy_fraction_per_cpu_from_deltas) {
  test::temp_dir tmp;
  fake_proc_stat stat(tmp.file("stat"), 4);
  host_cpu_stat reader(tmp.file("stat"));
  stat.advance(0, 100);
  EXPECT_EQ(reader.sample().size(), 4u);  // since boot
  stat.advance(75, 25);
  const auto busy = reader.sample();
  ASSERT_EQ(busy.size(), 4u);
  for (double b : busy) EXPECT_DOUBLE_EQ(b, 0.75);
  stat.advance(0, 50);
  for (double b : reader.sample()) EXPECT_DOUBLE_EQ(b, 0.0);
  EXPECT_TRUE(host_cpu_stat(tmp.file("missing")).sample().empty());
}

// A /proc/stat read by host_cpu_stat as a given load (/proc/stat -> host_cpu_stat -> CPU rail),
// over a file whose load the test sets, so that what else the machine runs cannot change it.
TEST(rail_simulator, proc_stat_load_raises_cpu_rail) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  fake_proc_stat stat(tmp.file("stat"), 12);
  host_cpu_stat reader(tmp.file("stat"));
  rail_simulator_options o;
  o.noise = 0;
  o.host_load = [&reader] { return reader.sample(); };
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  stat.advance(0, 100);
  for (int i = 0; i < 20; ++i) {
    stat.advance(2, 98);
    sim.step(0.05);
  }
  const double idle = rail(sim, "VDD_CPU_CV");
  EXPECT_NEAR(sim.host_load(), 0.02, 1e-9);
  for (int i = 0; i < 20; ++i) {
    stat.advance(100, 0);
    sim.step(0.05);
  }
  const double busy = rail(sim, "VDD_CPU_CV");
  EXPECT_NEAR(sim.host_load(), 1.0, 1e-9);
  EXPECT_GT(busy, idle + 1000) << "idle " << idle << " mW, busy " << busy << " mW";
}

TEST(power_model, boards_without_input_rail_sum_their_rails) {
  const auto& orin = find_profile("orin-agx");
  board_load l;
  l.online.assign(12, true);
  l.core_khz.assign(12, 729600);
  l.core_util.assign(12, 0.0);
  l.emc_hz = 2133000000;
  auto d = compute_power(orin, l);
  EXPECT_NEAR(board_total_mw(orin, d), d.rail(rail_kind::gpu_soc) + d.rail(rail_kind::cpu_cv) + d.sys5v + d.ddr, 1e-6);
  const auto& nano = find_profile("nano");
  l.online.assign(4, true);
  l.core_khz.assign(4, 1479000);
  l.core_util.assign(4, 1.0);
  d = compute_power(nano, l);
  EXPECT_EQ(board_total_mw(nano, d), d.input);
  EXPECT_GT(d.input, d.cpu + d.gpu);
}

TEST(rail_simulator, follows_direct_writes_like_the_kernel) {
  // The daemon writes sysfs directly (no nvpmodel): the simulator plays the drivers' part.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  double load = 0.0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, fixed_load(&load));
  root.write("/sys/devices/system/cpu/cpu3/online", "0");
  root.write("/sys/kernel/debug/bpmp/debug/clk/emc/rate", "665600000");
  root.write("/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked", "1");
  root.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq", "1190400");
  root.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq", "1190400");
  sim.step(0.02);
  EXPECT_EQ(root.read("/sys/devices/system/cpu/online"), "0-2,4-7");
  EXPECT_EQ(root.read_int("/sys/kernel/debug/bpmp/debug/clk/emc/rate"), 665600000);
  EXPECT_EQ(root.read_int("/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq"), 1190400);
  root.write("/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked", "0");
  sim.step(0.02);
  EXPECT_GT(root.read_int("/sys/kernel/debug/bpmp/debug/clk/emc/rate"), 665600000);
}

TEST(rail_simulator, each_reading_is_its_conversions_window_however_late_it_is_written) {
  // An INA3221 converts on its own oscillator: each reading is the mean over its conversion's
  // window, whenever the driver is read. The simulator's thread may write it late (a loaded host:
  // 10 ms here); what ran meanwhile belongs to the next reading, not to this one, so a reader
  // that places each reading on the chip's regular clock (in_context) places it right.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  const double load = 1.0;
  const auto cpu_rail_with = [&](double late_density, double window_density) {
    activity::enable();
    auto o = fixed_load(&load);
    const int source = 4242;
    o.before_rails = [&] {
      activity::note(monotonic_ns(), source, late_density);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    };
    rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
    const auto now = monotonic_ns();
    activity::note(now - 100'000'000, source, window_density);
    sim.step_window(now - 20'000'000, now);
    activity::note(monotonic_ns(), source, std::nullopt);
    activity::disable();
    return rail(sim, "VDD_CPU_CV");
  };
  const double steady = cpu_rail_with(0.0, 0.0);
  const double dense_late = cpu_rail_with(1000.0, 0.0);
  const double dense_window = cpu_rail_with(0.0, 1000.0);
  EXPECT_NEAR(dense_late, steady, 10) << "steady " << steady << " mW, dense late " << dense_late << " mW";
  // The window's own dense work (intensity 1.44 against 0.55): the busy cores' dynamic power
  // grows by 160% (5 W here, in the board's default mode).
  EXPECT_GT(dense_window - steady, 3000) << "steady " << steady << " mW, dense window " << dense_window << " mW";
}

TEST(rail_simulator, a_late_thread_writes_the_latest_conversion_only) {
  // A reader that slow sees only the newest value: a thread late by whole periods skips the
  // conversions it missed and writes the one that ended last, over its own regular window.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  const double load = 1.0;
  activity::enable();
  const int source = 4244;
  std::vector<std::int64_t> written;
  auto o = fixed_load(&load);
  o.period = std::chrono::microseconds(10'000);
  o.after_rails = [&written] { written.push_back(monotonic_ns()); };
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  activity::note(monotonic_ns(), source, 0.0);
  sim.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  sim.stop();
  activity::note(monotonic_ns(), source, std::nullopt);
  activity::disable();
  // Two chips and the board on one 10 ms schedule: no more writes than conversions (about 30),
  // however the host woke the thread, and at least a few.
  EXPECT_LE(written.size(), 32u);
  EXPECT_GE(written.size(), 10u);
}

TEST(rail_simulator, the_rails_are_written_before_the_boards_other_files) {
  // A chip's register holds the new mean the moment its conversion ends; the simulator's other
  // files (clocks, online cores, /proc/stat: about a millisecond on a loaded 2-core host) come
  // after the rails, so that a reader sees each update as close to its window's end as the
  // thread woke. The board's settings the rails use are the last update's.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  const double load = 0.5;
  auto o = fixed_load(&load);
  std::string online_when_rails_written;
  o.after_rails = [&] { online_when_rails_written = root.read("/sys/devices/system/cpu/online"); };
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  sim.step(0.02);
  ASSERT_EQ(root.read("/sys/devices/system/cpu/online"), "0-7");
  root.write("/sys/devices/system/cpu/cpu3/online", "0");
  sim.step(0.02);
  EXPECT_EQ(online_when_rails_written, "0-7");
  EXPECT_EQ(root.read("/sys/devices/system/cpu/online"), "0-2,4-7");
}

TEST(rail_simulator, the_update_period_follows_the_chips_averaging_count) {
  // jetperfd writes an INA3221's `samples` for in_context points; the chip then converts that
  // many samples per reading, and the driver says so in update_interval (rounded to a ms).
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string hw = "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3";
  const std::string hw2 = "/sys/bus/i2c/devices/1-0041/hwmon/hwmon4";
  ASSERT_EQ(root.read(hw + "/samples"), "16");
  ASSERT_EQ(root.read(hw + "/update_interval"), "20");
  // jetperfd sets every chip; each chip converts on its own count.
  root.write(hw + "/samples", "4");
  root.write(hw2 + "/samples", "4");
  double load = 0.5;
  auto o = fixed_load(&load);
  o.noise = 0.01;  // every update a change of the current (about 50 mA on 5 A here)
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  sim.start();
  // Count the changes of one rail's current over 0.5 s of 0.2 ms polls: 4.896 ms updates give
  // about 102; at the tree's 16 samples there would be 25.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::string last = root.read(hw + "/curr1_input");
  int changes = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    const auto now = root.read(hw + "/curr1_input");
    if (now != last) ++changes;
    last = now;
  }
  sim.stop();
  EXPECT_EQ(root.read(hw + "/update_interval"), "5");
  EXPECT_EQ(root.read(hw2 + "/update_interval"), "5");
  // Under qemu-user or a loaded host updates are skipped, not crowded: at least half arrive.
  EXPECT_GT(changes, 50);
  EXPECT_LT(changes, 115);
}

TEST(rail_simulator, each_chip_keeps_its_own_averaging_count) {
  // Two INA3221s convert on their own oscillators: a chip left at 16 samples keeps its 19.6 ms
  // updates while the other, at 4, updates four times as often.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string fast = "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3", slow = "/sys/bus/i2c/devices/1-0041/hwmon/hwmon4";
  root.write(fast + "/samples", "4");
  double load = 0.5;
  auto o = fixed_load(&load);
  o.noise = 0.01;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  sim.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // The second chip's first channel is not connected: its second, the memory rail, is.
  std::string last_fast = root.read(fast + "/curr1_input"), last_slow = root.read(slow + "/curr2_input");
  int fast_changes = 0, slow_changes = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    const auto f = root.read(fast + "/curr1_input"), l = root.read(slow + "/curr2_input");
    fast_changes += f != last_fast;
    slow_changes += l != last_slow;
    last_fast = f, last_slow = l;
  }
  sim.stop();
  EXPECT_EQ(root.read(fast + "/update_interval"), "5");
  EXPECT_EQ(root.read(slow + "/update_interval"), "20");
  // About 102 and 25 updates in 0.5 s; a loaded host skips some, never crowds them.
  EXPECT_GT(fast_changes, 50);
  EXPECT_LT(slow_changes, 30);
  EXPECT_GT(slow_changes, 10);
}

TEST(rail_simulator, its_modelled_power_is_what_the_sensor_integrates_without_its_noise) {
  // The truth every estimator is checked against (issue 55 item 2): the model's total over any
  // stretch, time-weighted. A thread of this process works densely through the second half of a
  // window, as a layer backend's does (noting it); over the window the model's figure is the
  // window's reading (no noise here, the files' whole milliamps aside), and its parts add up to it.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  activity::enable();
  rail_simulator_options o;
  o.noise = 0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  sim.step(0.1);  // clocks decided over an idle window
  const auto from = monotonic_ns(), half = from + 10'000'000, end = half + 10'000'000;
  const auto at = [](std::int64_t t) { return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(t)); };
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> began{0};
  std::thread worker([&] {
    std::this_thread::sleep_until(at(half));
    began = monotonic_ns();
    activity::begin_work(500.0);
    while (!stop.load()) {
    }
    activity::end_work();
  });
  std::this_thread::sleep_until(at(end));
  stop = true;
  worker.join();
  // The update's window runs from the last one's write to its own.
  sim.step_window(from - 40'000'000, end);  // a 60 ms schedule: no stall on a loaded host
  const auto until = monotonic_ns();
  const auto whole = sim.modelled({{from, until}});
  const auto idle = sim.modelled({{from, half}}), busy = sim.modelled({{began + 100'000, end}});
  const auto rest = sim.modelled({{half, until}});
  activity::disable();
  ASSERT_TRUE(whole && idle && busy && rest);
  EXPECT_LT(std::abs(idle->dynamic_w), 0.1);
  EXPECT_GT(busy->dynamic_w, 0.5);  // one dense core of an Orin in its default mode
  // The parts add up to the whole, weighted by their time (within 0.5%: each call reads the model
  // afresh, and beside two CPU hogs the parts and the whole once differed by 0.11%).
  EXPECT_NEAR(whole->power_w * whole->seconds, idle->power_w * idle->seconds + rest->power_w * rest->seconds,
              5e-3 * whole->power_w * whole->seconds);
  EXPECT_NEAR(whole->seconds, static_cast<double>(until - from) * 1e-9, 1e-9);
  // The reading is the model's over its conversion's window, to the files' whole milliamps.
  const auto reading = sim.modelled({{end - 60'000'000, end}});
  ASSERT_TRUE(reading.has_value());
  EXPECT_NEAR(sim.total_mw() / 1000.0, reading->power_w, 0.03);
  // Long ago is not kept: nothing is made up for it.
  EXPECT_FALSE(sim.modelled({{from - 300'000'000'000, from - 299'000'000'000}}).has_value());
}

TEST(rail_simulator, a_sensors_lag_moves_its_window_back_from_when_it_is_seen) {
  // A profile's lag_ms: each reading is seen that long after its window ended. Dense work 40 to
  // 10 ms before the update, none since: with a 10 ms lag the 20 ms window is all dense work
  // (however late the update is written, up to 10 ms); without one, half of it at most.
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  const double load = 1.0;
  constexpr int source = 4251;
  const auto cpu_rail_with_lag = [&](long long lag_us) {
    board_profile p = board.profile();
    p.sensor.lag_us = lag_us;
    activity::enable();
    // The work is noted relative to the moment the update takes its window, however late a
    // loaded host runs it.
    auto o = fixed_load(&load);
    o.before_rails = [] {
      const auto now = monotonic_ns();
      activity::note(now - 40'000'000, source, 1000.0);
      activity::note(now - 10'000'000, source, 0.0);
    };
    rail_simulator sim(p, board.paths().sysfs_root, o);
    const auto now = monotonic_ns();
    activity::note(now - 200'000'000, source, 0.0);
    sim.step_window(now - 20'000'000, now);
    activity::note(monotonic_ns(), source, std::nullopt);
    activity::disable();
    return rail(sim, "VDD_CPU_CV");
  };
  const double lagged = cpu_rail_with_lag(10'000), prompt = cpu_rail_with_lag(0);
  // Dense work all along, for the level a window of it reads.
  activity::enable();
  const auto now = monotonic_ns();
  activity::note(now - 200'000'000, source, 1000.0);
  rail_simulator dense(board.profile(), board.paths().sysfs_root, fixed_load(&load));
  dense.step_window(now - 20'000'000, now);
  activity::note(monotonic_ns(), source, std::nullopt);
  activity::disable();
  const double steady_dense = rail(dense, "VDD_CPU_CV");
  EXPECT_NEAR(lagged, steady_dense, 0.03 * steady_dense) << "lagged " << lagged << ", prompt " << prompt;
  EXPECT_GT(lagged - prompt, 800) << "lagged " << lagged << ", prompt " << prompt;
}

TEST(rail_simulator, the_tree_states_each_chips_own_period_before_the_simulator_runs) {
  // A daemon reads update_interval at start, maybe before the rail simulator's first step (a
  // loaded host): the tree must already say each chip's period, not the INA3221's default 20 ms.
  // (A profile file's 8.5 ms chip read as 20 ms left its sensor card without a clock.)
  test::temp_dir tmp;
  auto profile = find_profile("orin-agx");
  ASSERT_GE(profile.ina.size(), 2u);
  profile.ina[0].timing = profile.sensor;
  profile.ina[0].timing->period_us = 8500;
  profile.sensor.period_us = 26500;  // the chips without a timing of their own
  sim_create_options o;
  o.tools_dir = test::sim_tools_dir();
  auto board = sim_board::create(profile, tmp.path() + "/b", o);
  platform::sysfs_root root(board.paths().sysfs_root);
  EXPECT_EQ(root.read("/sys/bus/i2c/devices/1-0040/hwmon/hwmon3/update_interval"), "9");
  EXPECT_EQ(root.read("/sys/bus/i2c/devices/1-0041/hwmon/hwmon4/update_interval"), "27");
}

TEST(rail_simulator, the_tree_runs_the_emc_under_the_default_modes_cap_before_the_simulator_runs) {
  // xavier-nx boots in MODE_10W_DESKTOP (EMC cap 1600 MHz): a daemon reading the EMC before the
  // rail simulator's first update saw 1866 MHz there.
  test::temp_dir tmp;
  const auto& profile = find_profile("xavier-nx");
  long long cap = 0;
  for (const auto& m : profile.modes)
    if (m.id == profile.default_mode) cap = m.emc_max_hz;
  ASSERT_EQ(cap, 1600000000);
  auto board = sim_testing::make_board("xavier-nx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  EXPECT_EQ(root.read(profile.emc_rate_path), "1600000000");
}
