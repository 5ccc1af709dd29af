#include <jetperf/sim/rail_simulator.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <pthread.h>
#include <sched.h>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/common/work_activity.hpp>
#include <jetperf/sim/board_tree.hpp>
#include <jetperf/sim/kernel_write.hpp>
#include <jetperf/sim/mode_cap_hold.hpp>

#include "file_io.hpp"
#include "proc_stat_text.hpp"

namespace jetperf::sim {
namespace {

const std::string k_cpu_dir = "/sys/devices/system/cpu";

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

int popcount(long long v) {
  int n = 0;
  for (unsigned long long u = static_cast<unsigned long long>(v); u; u &= u - 1) ++n;
  return n;
}

// What a DVFS governor picks between min and max for a load (0..1), on the table.
long long governed(const std::vector<long long>& table, const std::string& governor, long long mn, long long mx,
                   double load) {
  long long target;
  if (governor == "performance") target = mx;
  else if (governor == "powersave") target = mn;
  else target = mn + static_cast<long long>(static_cast<double>(mx - mn) * std::clamp(load, 0.0, 1.0));
  target = table_ceil(table, target);
  return std::clamp(target, mn, mx);
}

}  // namespace

rail_simulator::rail_simulator(const board_profile& profile, std::string root, rail_simulator_options options)
    : profile_(profile), root_(std::move(root)), options_(std::move(options)) {
  if (!options_.host_load) {
    threads_ = std::make_unique<workload_threads>();
    reservation_ = std::make_unique<cpu_reservation>();
    const auto& refused = reservation_->unavailable();
    speed_.simulated = refused.empty();
    speed_.reason = refused;
    speed_.mechanism = reservation_->mechanism();
    if (!refused.empty()) spdlog::warn("simulated board: CPU speed does not follow the simulated clock: {}", refused);
  } else {
    speed_.reason = "the simulator runs on a given load";
  }
  jiffies_.assign(static_cast<size_t>(profile_.core_count()), detail::core_jiffies{});
  const auto add_sensor = [this](sensor_clock c, const sensor_timing& t) {
    c.timing = t;
    if (options_.period) c.timing.period_us = options_.period->count();
    if (options_.noise) {
      c.timing.noise_fraction = *options_.noise;
      c.timing.noise_mw = 0;
    }
    c.period_ns = std::max<std::int64_t>(c.timing.period_us, 100) * 1000;
    sensors_.push_back(c);
  };
  for (std::size_t i = 0; i < profile_.ina.size(); ++i) {
    sensor_clock c;
    c.ina_index = i;
    add_sensor(c, profile_.timing_of(profile_.ina[i]));
  }
  for (std::size_t i = 0; i < profile_.ina238.size(); ++i) {
    sensor_clock c;
    c.ina238_index = i;
    add_sensor(c, profile_.timing_of(profile_.ina238[i]));
  }
  chip_rails_.resize(sensors_.size());
  activity::enable();
  die_c_ = profile_.power.ambient_c + 8;
}

rail_simulator::~rail_simulator() {
  stop();
  activity::disable();
}

void rail_simulator::add_process(int pid) {
  if (threads_) threads_->add_process(pid);
  // Forked by the runner thread, it starts inside the runner's CPU share, if it has one.
  if (reservation_) reservation_->detach(pid);
}

void rail_simulator::remove_process(int pid) {
  if (threads_) threads_->remove_process(pid);
}

namespace {

// The simulator stands for INA3221s, whose registers change on the chip's oscillator whatever the
// host does. A writer thread the host's scheduler holds back moves a change into a later poll,
// which no chip does, and a loaded host (a test beside, a build) then gives the sensor card
// changes on no regular clock ("161 of 181 changes unexplained" beside two CPU hogs). Real-time
// priority keeps the writes on time where the process may take it (root, CAP_SYS_NICE); elsewhere
// the thread runs as before. It sleeps between windows, so it takes no CPU from the workload.
void write_on_time() {
  sched_param p{};
  p.sched_priority = 1;
  if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &p) != 0)
    spdlog::debug("rail simulator: no real-time priority; a loaded host may delay its sensors' updates");
}

}  // namespace

void rail_simulator::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = false;
  }
  thread_ = std::thread([this] {
    name_this_thread("jp-sim");
    write_on_time();
    run();
  });
}

void rail_simulator::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Whatever runs next runs at full speed.
  if (reservation_) reservation_->release_all();
}

void rail_simulator::run() {
  // steady_clock is CLOCK_MONOTONIC: the windows are on the daemon's timeline. The board's clocks
  // are chosen on the first chip's schedule (the profile's period on a board without one); each
  // chip keeps its own, as each INA3221 converts on its own oscillator.
  follow_averaging();
  const auto board_period = [this] {
    return sensors_.empty() ? std::max<std::int64_t>(options_.period.value_or(std::chrono::microseconds(profile_.sensor.period_us)).count(), 100) * 1000
                            : sensors_.front().period_ns;
  };
  const auto start = monotonic_ns();
  std::int64_t board_next = start + board_period();
  for (auto& c : sensors_) c.next_ns = start + c.period_ns + c.timing.lag_us * 1000;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    std::int64_t due = board_next;
    for (const auto& c : sensors_) due = std::min(due, c.next_ns);
    cv_.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due)), [this] { return stop_; });
    if (stop_) break;
    lock.unlock();
    const bool board = board_next <= monotonic_ns();
    try {
      update(board ? std::optional<std::int64_t>(board_next) : std::nullopt, board_period());
    } catch (const std::exception& e) {
      // The tree may be mid-rebuild; the next step retries.
      spdlog::debug("rail simulator step failed: {}", e.what());
    }
    // A new averaging count takes effect from the next conversion.
    follow_averaging();
    if (board) board_next = std::max(last_end_ns_, board_next) + board_period();
    lock.lock();
  }
}

void rail_simulator::follow_averaging() {
  for (auto& c : sensors_) {
    if (!c.ina_index || !profile_.hwmon_rails) continue;
    const auto& chip = profile_.ina[*c.ina_index];
    const auto samples = get_ll(rail_dir(profile_, "", chip) + "/samples");
    if (!samples || *samples <= 0) continue;
    const std::int64_t period_ns = c.timing.period_us * 1000 * *samples / k_tree_samples;
    // Averaging fewer samples leaves more of the ADC's noise in each reading (1/sqrt(samples)).
    c.noise_scale = std::sqrt(static_cast<double>(k_tree_samples) / static_cast<double>(*samples));
    c.period_ns = std::max<std::int64_t>(period_ns, 100'000);
    // The driver computes update_interval from the chip's configuration, rounded to a millisecond.
    put(rail_dir(profile_, "", chip) + "/update_interval", std::to_string((period_ns + 500'000) / 1'000'000) + "\n");
  }
}

void rail_simulator::put(const std::string& board_path, const std::string& text) {
  auto it = written_.find(board_path);
  if (it != written_.end() && it->second == text) return;
  detail::write_in_place(root_ + board_path, text);
  written_[board_path] = text;
}

std::optional<long long> rail_simulator::get_ll(const std::string& board_path) const {
  return detail::read_ll(root_ + board_path);
}

std::string rail_simulator::get_text(const std::string& board_path) const {
  return trimmed(detail::read_text(root_ + board_path).value_or(""));
}

std::vector<double> rail_simulator::core_loads(const std::vector<bool>& online, const std::map<int, double>& shares,
                                               const std::set<int>& noting, const std::vector<thread_busy>& threads) const {
  const size_t n = online.size();
  if (options_.host_load) {
    // Sampled once per board update (a given load is a delta since the last sample).
    std::vector<double> host;
    {
      std::lock_guard<std::mutex> lock(history_mutex_);
      host = host_util_;
    }
    std::vector<double> u(n, 0.0);
    for (size_t i = 0; i < n && !host.empty(); ++i) u[i] = host[i % host.size()];
    return u;
  }
  // Each workload thread's load relative to the share it ran with (a thread that uses all of a
  // 10% share keeps its core as busy as a real core at that clock), packed onto the online cores
  // busiest first, as the scheduler spreads runnable threads. A thread that says what it runs (a
  // layer backend's, common/work_activity.hpp) loads its core for the time it worked, as a
  // board's core would run it: not for the CPU time the host happened to give it, which other
  // work on the host cuts.
  std::vector<double> loads;
  std::map<int, double> unseen = shares;
  for (const auto& t : threads) {
    const auto noted = shares.find(t.tid);
    // A thread that notes its work did what it noted: none where it noted none (the runner
    // between runs), not the CPU time the last sample of the threads gave it over a longer time.
    const double share = noted != shares.end() ? noted->second
                         : noting.count(t.tid) ? 0.0
                                               : t.busy / t.share;
    loads.push_back(std::clamp(share, 0.0, 1.0));
    unseen.erase(t.tid);
  }
  // A thread that noted its work counts for it even where the last sample of the threads missed
  // it (it ended since: the work it noted was still done).
  for (const auto& [tid, share] : unseen) loads.push_back(std::clamp(share, 0.0, 1.0));
  std::sort(loads.rbegin(), loads.rend());
  std::vector<size_t> cores;
  for (size_t i = 0; i < n; ++i)
    if (online[i]) cores.push_back(i);
  std::vector<double> u(n, 0.0);
  if (cores.empty()) return u;
  for (size_t k = 0; k < loads.size(); ++k) {
    size_t c = cores[k % cores.size()];
    if (k >= cores.size())
      c = *std::min_element(cores.begin(), cores.end(), [&u](size_t a, size_t b) { return u[a] < u[b]; });
    u[c] = std::min(1.0, u[c] + loads[k]);
  }
  return u;
}

// About once a second at the 20 ms period: how long a stalled reservation can last.
constexpr unsigned k_renew_steps = 50;

void rail_simulator::reserve_speed(const board_load& l) {
  if (!reservation_ || !speed_.simulated) return;
  // Threads may run on any online cluster: the fastest one sets their share.
  double share = 0;
  for (const auto& cl : profile_.clusters) {
    for (int c : cl.cores) {
      if (!l.online[static_cast<size_t>(c)]) continue;
      share = std::max(share, static_cast<double>(l.core_khz[static_cast<size_t>(c)]) /
                                  static_cast<double>(cl.freqs_khz.back()));
      break;
    }
  }
  if (share <= 0) share = 1;
  // Busy threads get the share; a thread that was reserved keeps it while it lives. Running:
  // those that used a fifth of their share or more in the last step.
  std::vector<int> tids;
  std::size_t running = 0;
  for (const auto& t : last_threads_) {
    // Another process's threads (a command job's program) run at the host's speed: holding
    // them is not this process's to do, and their rows say speed_not_simulated.
    if (t.external) continue;
    if (t.busy > 0.01 || reservation_->share_of(t.tid) < 1) tids.push_back(t.tid);
    if (t.busy / t.share > 0.2) ++running;
  }
  if (++steps_ % k_renew_steps == 0) reservation_->renew();
  const std::string refused = reservation_->apply(tids, share);
  std::lock_guard<std::mutex> lock(mutex_);
  speed_.share = share;
  if (running > 1 && share < 0.95) speed_.last_parallel_ns = monotonic_ns();
  if (!refused.empty()) {
    // Said once per distinct reason: the simulator retries every step.
    if (refused != speed_.reason) spdlog::warn("simulated board: a CPU share of {:.3f} for {} thread(s) was refused: {}", share, tids.size(), refused);
    speed_.last_refusal_ns = monotonic_ns();
    speed_.reason = refused;
  }
}

void rail_simulator::write_proc_stat(const board_load& l, double dt_s) {
  constexpr double user_hz = 100;
  for (size_t i = 0; i < jiffies_.size() && i < l.core_util.size(); ++i) {
    jiffies_[i].online = l.online[i];
    if (!l.online[i]) continue;
    jiffies_[i].busy += l.core_util[i] * dt_s * user_hz;
    jiffies_[i].idle += (1 - l.core_util[i]) * dt_s * user_hz;
  }
  put("/proc/stat", detail::proc_stat_text(jiffies_));
}

rail_simulator::board_settings rail_simulator::read_settings() {
  const auto& p = profile_;
  // The kernel's answer to a limit written above the mode's cap comes first (mode_cap_hold.hpp).
  hold_mode_caps(p, root_);
  board_settings s;
  board_load& l = s.load;
  const int n = p.core_count();
  l.online.assign(n, true);
  l.core_khz.assign(n, 0);
  for (int i = 0; i < n; ++i) l.online[i] = get_ll(k_cpu_dir + "/cpu" + std::to_string(i) + "/online").value_or(1) != 0;
  for (const auto& cl : p.clusters) {
    const std::string policy = k_cpu_dir + "/cpufreq/policy" + std::to_string(cl.cores.front());
    const auto& t = cl.freqs_khz;
    board_settings::policy_range r;
    r.min_khz = std::clamp(get_ll(policy + "/scaling_min_freq").value_or(t.front()), t.front(), t.back());
    r.max_khz = std::max(r.min_khz, std::clamp(get_ll(policy + "/scaling_max_freq").value_or(t.back()), t.front(), t.back()));
    r.governor = get_text(policy + "/scaling_governor");
    s.policies.push_back(std::move(r));
  }
  read_gpu(l);
  read_emc_range(s);
  return s;
}

board_load rail_simulator::loaded(const board_settings& s, const std::vector<double>& core_util,
                                  std::optional<double> intensity) const {
  const auto& p = profile_;
  board_load l = s.load;
  l.core_util = core_util;
  if (intensity) l.cpu_intensity = *intensity;
  // schedutil follows the busiest core of the policy.
  for (size_t k = 0; k < p.clusters.size() && k < s.policies.size(); ++k) {
    const auto& cl = p.clusters[k];
    const auto& r = s.policies[k];
    double busy = 0;
    for (int c : cl.cores)
      if (l.online[c]) busy = std::max(busy, l.core_util[c]);
    const long long f = governed(cl.freqs_khz, r.governor, r.min_khz, r.max_khz, busy);
    for (int c : cl.cores) l.core_khz[c] = f;
  }
  choose_emc(l, s, std::max(cpu_busy(l), l.gpu_load));
  return l;
}

double rail_simulator::cpu_busy(const board_load& l) {
  double sum = 0;
  int online = 0;
  for (size_t i = 0; i < l.online.size() && i < l.core_util.size(); ++i) {
    if (!l.online[i]) continue;
    sum += l.core_util[i];
    ++online;
  }
  return online ? sum / online : 0;
}

void rail_simulator::write_clocks(const board_load& l) {
  const auto& p = profile_;
  put(k_cpu_dir + "/online", cpu_range_list(l.online) + "\n");
  std::vector<bool> off(l.online.size());
  for (size_t i = 0; i < off.size(); ++i) off[i] = !l.online[i];
  put(k_cpu_dir + "/offline", cpu_range_list(off) + "\n");
  for (const auto& cl : p.clusters) {
    const std::string policy = k_cpu_dir + "/cpufreq/policy" + std::to_string(cl.cores.front());
    const std::string f = std::to_string(l.core_khz[static_cast<size_t>(cl.cores.front())]) + "\n";
    put(policy + "/scaling_cur_freq", f);
    put(policy + "/cpuinfo_cur_freq", f);
  }
  if (p.emc_rate_path.empty()) return;
  put(p.emc_rate_path, std::to_string(l.emc_hz) + "\n");
  // mc_all in kHz-weighted activity, so activity / rate_kHz is the load fraction [unconfirmed unit].
  put("/sys/kernel/actmon_avg_activity/mc_all",
      std::to_string(static_cast<long long>(l.emc_util * static_cast<double>(l.emc_hz) / 1000.0)) + "\n");
}

void rail_simulator::read_gpu(board_load& l) {
  const auto& p = profile_;
  // GPU: devfreq keeps cur_freq within [min, max]; the GPU is rail-gated when idle.
  const auto& gt = p.gpu_freqs_hz;
  const std::string& df = p.gpu_devfreq_dir;
  long long gmn = table_ceil(gt, get_ll(df + "/min_freq").value_or(gt.front()));
  long long gmx = table_floor(gt, get_ll(df + "/max_freq").value_or(gt.back()));
  gmx = std::max(gmn, gmx);
  const long long load_pm = std::clamp(get_ll(p.gpu_device_dir + "/load").value_or(0), 0LL, 1000LL);
  l.gpu_load = static_cast<double>(load_pm) / 1000.0;
  const bool railgate = get_ll(p.gpu_device_dir + "/railgate_enable").value_or(1) != 0;
  l.gpu_powered = load_pm > 0 || !railgate || get_text(p.gpu_device_dir + "/power/control") == "on";
  l.gpu_hz = governed(gt, get_text(df + "/governor"), gmn, gmx, l.gpu_load);
  l.gpu_gated_tpcs = popcount(get_ll(p.gpu_device_dir + "/tpc_pg_mask").value_or(0));
  put(df + "/cur_freq", std::to_string(l.gpu_hz) + "\n");
  put(df + "/target_freq", std::to_string(l.gpu_hz) + "\n");
  if (p.nvgpu_sysfs) {
    put(p.gpu_device_dir + "/is_railgated", std::string(l.gpu_powered ? "no" : "yes") + "\n");
    put(p.gpu_device_dir + "/gpu_powered_on", std::string(l.gpu_powered ? "1" : "0") + "\n");
  }
  for (const auto& clk : p.gpu_clock_debugfs) put(clk, std::to_string(l.gpu_powered ? l.gpu_hz : 0) + "\n");
}

void rail_simulator::read_emc_range(board_settings& s) const {
  const auto& p = profile_;
  const auto& et = p.emc_freqs_hz;
  if (p.emc_rate_path.empty() || et.empty()) return;
  long long emn = get_ll(p.emc_min_path).value_or(et.front());
  long long emx = get_ll(p.emc_max_path).value_or(et.back());
  long long cap = get_ll(p.emc_cap_path).value_or(0);
  if (cap > 0) emx = std::min(emx, cap);
  emx = std::max(table_floor(et, emx), et.front());
  emn = std::min(table_ceil(et, emn), emx);
  s.emc_min_hz = emn;
  s.emc_max_hz = emx;
  // A locked/overridden EMC (jetson_clocks) runs at the rate written, not at actmon's choice.
  if (p.soc == "tegra210" && get_ll("/sys/kernel/debug/clk/override.emc/clk_state").value_or(0) == 1) {
    if (const auto rate = get_ll("/sys/kernel/debug/clk/override.emc/clk_update_rate")) s.emc_locked_hz = *rate;
  } else if (p.soc != "tegra210" && get_ll("/sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked").value_or(0) == 1) {
    if (const auto rate = get_ll(p.emc_rate_path)) s.emc_locked_hz = table_floor(et, *rate);
  }
}

void rail_simulator::choose_emc(board_load& l, const board_settings& s, double demand) const {
  const auto& et = profile_.emc_freqs_hz;
  // actmon scales the EMC with memory demand between the floor and the nvpmodel cap.
  l.emc_util = std::clamp(0.03 + 0.5 * demand, 0.0, 1.0);
  if (et.empty()) return;
  if (profile_.emc_rate_path.empty()) {
    // No EMC files (Thor): the memory clock follows demand on its own table, unseen.
    l.emc_hz = std::max(et.front(), table_floor(et, static_cast<long long>(static_cast<double>(et.back()) * (0.67 + 0.33 * demand))));
    return;
  }
  const long long chosen = s.emc_locked_hz.value_or(
      table_floor(et, static_cast<long long>(static_cast<double>(s.emc_max_hz) * (0.67 + 0.33 * demand))));
  l.emc_hz = std::clamp(chosen, s.emc_min_hz, s.emc_max_hz);
}

void rail_simulator::write_ina(const ina_chip& chip, const domain_power& d, double noise_scale, const sensor_timing& t) {
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const double fraction = t.noise_fraction * noise_scale, absolute = t.noise_mw * noise_scale;
  const std::string dir = rail_dir(profile_, "", chip);
  std::vector<std::pair<std::string, double>> rails;
  long long shunt_sum_uv = 0;
  for (size_t k = 0; k < chip.channels.size(); ++k) {
    const auto& ch = chip.channels[k];
    const bool nc = ch.kind == rail_kind::nc;
    double mw = nc ? 0 : std::max(0.0, d.rail(ch.kind) * (1 + fraction * jitter(rng_)) + absolute * jitter(rng_));
    // Every monitored rail is measured on the 5 V side of its regulator.
    long long mv = nc ? 0 : 5000 + static_cast<long long>(std::lround(fraction * jitter(rng_) * 4000));
    long long ma = mv > 0 ? std::llround(mw * 1000.0 / static_cast<double>(mv)) : 0;
    // Keep P = V * I exact in what readers compute from the files.
    mw = static_cast<double>(mv) * static_cast<double>(ma) / 1000.0;
    rails.emplace_back(ch.label, mw);
    if (profile_.hwmon_rails) {
      const std::string ks = std::to_string(k + 1);
      put(dir + "/in" + ks + "_input", std::to_string(mv) + "\n");
      put(dir + "/curr" + ks + "_input", std::to_string(ma) + "\n");
      const long long shunt_uv = ma * 5;  // 5 mOhm shunt
      shunt_sum_uv += shunt_uv;
      put(dir + "/in" + std::to_string(k + 4) + "_input", std::to_string(shunt_uv) + "\n");
    } else {
      const std::string ks = std::to_string(k);
      put(dir + "/in_power" + ks + "_input", std::to_string(std::llround(mw)) + "\n");
      put(dir + "/in_current" + ks + "_input", std::to_string(ma) + "\n");
      put(dir + "/in_voltage" + ks + "_input", std::to_string(mv) + "\n");
    }
  }
  if (profile_.hwmon_rails) put(dir + "/in7_input", std::to_string(shunt_sum_uv) + "\n");
  const auto index = static_cast<std::size_t>(&chip - profile_.ina.data());
  chip_rails_[index] = std::move(rails);
}

void rail_simulator::write_ina238(const ina238_chip& chip, double mw, double noise_scale, const sensor_timing& t) {
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const double fraction = t.noise_fraction * noise_scale;
  mw = mw * (1 + fraction * jitter(rng_)) + t.noise_mw * noise_scale * jitter(rng_);
  // A 20 V USB-C PD input (the layouts' in1_input 19968 mV); 2 mOhm shunt [assumed].
  const long long mv = 20000 + static_cast<long long>(std::lround(fraction * jitter(rng_) * 16000));
  const long long ma = std::llround(std::max(0.0, mw) * 1000.0 / static_cast<double>(mv));
  // mV x mA = uW: the driver's power1_input, kept equal to V x I as the files show them.
  const long long uw = mv * ma;
  const std::string dir = ina238_dir(chip);
  put(dir + "/in0_input", std::to_string(ma / 500) + "\n");
  put(dir + "/in1_input", std::to_string(mv) + "\n");
  put(dir + "/curr1_input", std::to_string(ma) + "\n");
  put(dir + "/power1_input", std::to_string(uw) + "\n");
  const auto index = profile_.ina.size() + static_cast<std::size_t>(&chip - profile_.ina238.data());
  chip_rails_[index] = {{"VIN", static_cast<double>(uw) / 1000.0}};
}

void rail_simulator::publish_rails() {
  std::vector<std::pair<std::string, double>> rails;
  for (const auto& chip : chip_rails_) rails.insert(rails.end(), chip.begin(), chip.end());
  // The total as the sampler takes it: the input rail where the board has one, else the rails'
  // sum; the carrier's INA238 (VIN, the whole board) above all.
  double total = 0;
  bool has_input = false;
  for (const auto& chip : profile_.ina)
    for (const auto& ch : chip.channels) has_input = has_input || ch.kind == rail_kind::input;
  std::size_t r = 0;
  for (const auto& chip : profile_.ina)
    for (const auto& ch : chip.channels) {
      if (r < rails.size() && (!has_input || ch.kind == rail_kind::input)) total += rails[r].second;
      ++r;
    }
  if (!profile_.ina238.empty() && r < rails.size()) total = rails[r].second;
  std::lock_guard<std::mutex> lock(mutex_);
  rails_ = std::move(rails);
  total_ = total;
}

void rail_simulator::write_temps(double total_mw, double dt_s) {
  const auto& c = profile_.power;
  const double target = c.ambient_c + c.thermal_c_per_w * total_mw / 1000.0;
  const double a = 1.0 - std::exp(-std::max(dt_s, 0.0) / c.thermal_tau_s);
  die_c_ += (target - die_c_) * a;
  for (size_t i = 0; i < profile_.zones.size(); ++i) {
    const auto& z = profile_.zones[i];
    if (z.offline || z.fixed_trip) continue;
    // Thermal sensors report in 0.5 C .. 1 mC steps; keep 31.25 mC resolution like the BPMP ones.
    long long mc = static_cast<long long>(std::lround((die_c_ + z.offset_c) * 32.0)) * 1000 / 32;
    put("/sys/devices/virtual/thermal/thermal_zone" + std::to_string(i) + "/temp", std::to_string(mc) + "\n");
  }
  // The fan (temp_control) follows the temperature on r32; rpm follows the PWM everywhere.
  if (!profile_.fan_hwmon) {
    long long pwm = get_ll("/sys/devices/pwm-fan/target_pwm").value_or(0);
    put("/sys/devices/pwm-fan/rpm_measured", std::to_string(pwm * 5000 / 255) + "\n");
  }
}

void rail_simulator::step(double dt_s) {
  // Called directly (tests), an update takes the files as they are now, over `dt_s` to now.
  settings_.reset();
  last_end_ns_ = 0;
  const auto now = monotonic_ns();
  step_window(now - static_cast<std::int64_t>(dt_s * 1e9), now);
}

void rail_simulator::step_window(std::int64_t from_ns, std::int64_t to_ns) {
  // Every chip converts over the schedule's window, seen at its end (and its lag).
  for (auto& c : sensors_) {
    c.next_ns = to_ns;
    c.last_end_ns = 0;
  }
  update(to_ns, to_ns - from_ns, to_ns - from_ns);
}

namespace {

// The latest of the times `next`, `next` + `period`, ... that is not after `now`.
std::int64_t latest_due(std::int64_t next, std::int64_t period, std::int64_t now) {
  return now > next && period > 0 ? next + (now - next) / period * period : next;
}

}  // namespace

void rail_simulator::update(std::optional<std::int64_t> board_due_ns, std::int64_t board_period_ns,
                            std::int64_t chip_period_ns) {
  // An INA3221 converts on its own oscillator: each reading is the mean over its conversion's
  // window, on the chip's schedule, whenever this thread gets to write it; a reader sees it from
  // then on (the chip's lag later at the earliest). A thread late by whole periods writes the
  // latest conversion only, as a reader that slow sees only the latest. The rails come first,
  // from the board's settings as the last update read them; the board's other files follow.
  if (threads_) {
    last_threads_ = threads_->sample(monotonic_ns());  // 40 us
    // Each thread's load is relative to the share it ran with over the sample: the share this
    // update then gives it (reserve_speed) must not change a window modelled afresh later.
    for (auto& t : last_threads_) t.share = reservation_->share_of(t.tid);
  }
  if (!settings_) settings_ = read_settings();
  if (options_.before_rails) options_.before_rails();
  const auto taken_ns = monotonic_ns();
  std::vector<double> core_util;
  std::optional<double> intensity;
  if (board_due_ns && options_.host_load) {
    auto host = options_.host_load();
    std::lock_guard<std::mutex> lock(history_mutex_);
    host_util_ = std::move(host);
  }
  if (board_due_ns) {
    // The board's window: its clocks chosen for its load, as a governor would.
    const auto end_ns = chip_period_ns > 0 ? *board_due_ns : latest_due(*board_due_ns, board_period_ns, taken_ns);
    const auto start_ns = last_end_ns_ > 0 && end_ns - last_end_ns_ <= 2 * board_period_ns ? last_end_ns_ : end_ns - board_period_ns;
    const auto work = activity::work_between(start_ns, end_ns, intensity_factor);
    core_util = core_loads(settings_->load.online, work.shares, work.noting, last_threads_);
    intensity = work.mean;
    const board_load decided = loaded(*settings_, core_util, intensity);
    remember(start_ns, end_ns, decided, compute_power(profile_, decided));
    last_end_ns_ = end_ns;
  }
  for (auto& c : sensors_) {
    if (c.next_ns > taken_ns && !(chip_period_ns > 0)) continue;
    const std::int64_t period = chip_period_ns > 0 ? chip_period_ns : c.period_ns;
    const auto seen_ns = chip_period_ns > 0 ? c.next_ns : latest_due(c.next_ns, period, taken_ns);
    const auto end_ns = seen_ns - c.timing.lag_us * 1000;
    c.last_end_ns = end_ns;
    c.next_ns = seen_ns + period;
    const domain_power d = mean_power(end_ns - period, end_ns);
    if (c.ina_index) write_ina(profile_.ina[*c.ina_index], d, c.noise_scale, c.timing);
    else write_ina238(profile_.ina238[*c.ina238_index], d.input, c.noise_scale, c.timing);
  }
  publish_rails();

  if (options_.after_rails) options_.after_rails();
  if (!board_due_ns) return;
  // Then the rest of the board for the same window, with the settings as they are now, which the
  // next update's clocks start from (a clock written during a window takes effect at its end).
  const double dt_s = static_cast<double>(board_period_ns) * 1e-9;
  settings_ = read_settings();
  const board_load l = loaded(*settings_, core_util, intensity);
  write_clocks(l);
  write_proc_stat(l, dt_s);
  write_temps(total_mw(), dt_s);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    host_load_ = cpu_busy(l);
  }
  // The CPU shares for the clocks just read come last: moving a thread into its cgroup quota
  // takes up to 13 ms on a 2-core host (the cgroup's migration), and before the rails it
  // delayed their update by as much. The shares take effect a few hundred microseconds later.
  reserve_speed(l);
}

board_load rail_simulator::with_work(const board_load& clocks, const std::vector<double>& core_util,
                                     std::optional<double> intensity) const {
  board_load l = clocks;
  l.core_util = core_util;
  l.cpu_intensity = intensity.value_or(1.0);
  // The memory's traffic follows the demand within the window (its clock stays as chosen).
  l.emc_util = std::clamp(0.03 + 0.5 * std::max(cpu_busy(l), l.gpu_load), 0.0, 1.0);
  return l;
}

namespace {

void add_scaled(domain_power& sum, const domain_power& d, double w) {
  sum.cpu += d.cpu * w, sum.gpu += d.gpu * w, sum.soc += d.soc * w, sum.ddr += d.ddr * w;
  sum.cv += d.cv * w, sum.sys5v += d.sys5v * w, sum.wifi += d.wifi * w, sum.input += d.input * w;
}

// Windows kept: two minutes (32 bytes each), and no more than this many; decisions (a few
// hundred bytes each) no more than this many.
constexpr std::int64_t k_history_ns = 120'000'000'000;
constexpr std::size_t k_windows_max = 40'000;
constexpr std::size_t k_decisions_max = 4'096;

}  // namespace

domain_power rail_simulator::mean_power(std::int64_t from_ns, std::int64_t to_ns) const {
  domain_power sum;
  if (to_ns <= from_ns) return sum;
  std::vector<decision> pieces;
  std::vector<thread_busy> threads;
  {
    std::lock_guard<std::mutex> lock(history_mutex_);
    threads = threads_seen_;
    // The decision in force at from_ns and every later one up to to_ns.
    auto it = std::upper_bound(decisions_.begin(), decisions_.end(), from_ns,
                               [](std::int64_t t, const decision& d) { return t < d.from_ns; });
    if (it != decisions_.begin()) --it;
    for (; it != decisions_.end() && it->from_ns < to_ns; ++it) pieces.push_back(*it);
  }
  if (pieces.empty()) return sum;
  const double span = static_cast<double>(to_ns - from_ns);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    // Before the first decision kept, its clocks stand for the board's.
    const auto a = k == 0 ? from_ns : std::max(from_ns, pieces[k].from_ns);
    const auto b = k + 1 < pieces.size() ? std::min(to_ns, pieces[k + 1].from_ns) : to_ns;
    if (b <= a) continue;
    const auto work = activity::work_between(a, b, intensity_factor);
    const auto util = core_loads(pieces[k].load.online, work.shares, work.noting, threads);
    add_scaled(sum, compute_power(profile_, with_work(pieces[k].load, util, work.mean)), static_cast<double>(b - a) / span);
  }
  return sum;
}

double rail_simulator::total_of(const domain_power& d) const {
  return profile_.ina238.empty() ? board_total_mw(profile_, d) : d.input;
}

double rail_simulator::idle_mw(const board_load& clocks) const {
  return total_of(compute_power(profile_, with_work(clocks, std::vector<double>(clocks.online.size(), 0.0), std::nullopt)));
}

double rail_simulator::idle_at_mw(std::int64_t t_ns) const {
  board_load clocks;
  {
    std::lock_guard<std::mutex> lock(history_mutex_);
    if (decisions_.empty()) return 0;
    auto it = std::upper_bound(decisions_.begin(), decisions_.end(), t_ns,
                               [](std::int64_t t, const decision& d) { return t < d.from_ns; });
    if (it != decisions_.begin()) --it;
    clocks = it->load;
  }
  return idle_mw(clocks);
}

void rail_simulator::remember(std::int64_t from_ns, std::int64_t to_ns, const board_load& decided, const domain_power& mean) {
  const double idle = idle_mw(decided);
  std::lock_guard<std::mutex> lock(history_mutex_);
  threads_seen_ = last_threads_;
  const auto same_clocks = [](const board_load& a, const board_load& b) {
    return a.online == b.online && a.core_khz == b.core_khz && a.gpu_hz == b.gpu_hz && a.gpu_load == b.gpu_load &&
           a.gpu_powered == b.gpu_powered && a.gpu_gated_tpcs == b.gpu_gated_tpcs && a.emc_hz == b.emc_hz;
  };
  if (decisions_.empty() || !same_clocks(decisions_.back().load, decided) || decisions_.back().from_ns > from_ns) {
    // A decision holds from its window's start: where windows overlap after a stall, the newer wins.
    while (!decisions_.empty() && decisions_.back().from_ns >= from_ns) decisions_.pop_back();
    decisions_.push_back({from_ns, decided});
  }
  windows_.push_back({from_ns, to_ns, total_of(mean), idle});
  const auto horizon = to_ns - k_history_ns;
  while (windows_.size() > k_windows_max || (!windows_.empty() && windows_.front().end_ns < horizon)) windows_.pop_front();
  // Decisions are needed only as far back as the work log reaches (a few seconds at most): a
  // governor may choose anew every window, and each holds the board's clocks.
  while (decisions_.size() > k_decisions_max || (decisions_.size() > 1 && decisions_[1].from_ns < horizon))
    decisions_.pop_front();
}

std::optional<platform::modelled_power> rail_simulator::modelled(const std::vector<platform::time_span>& spans) const {
  std::vector<window_mean> windows;
  std::vector<decision> decided;
  {
    std::lock_guard<std::mutex> lock(history_mutex_);
    if (windows_.empty()) return std::nullopt;
    std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
    for (const auto& [a, b] : spans) lo = std::min(lo, a), hi = std::max(hi, b);
    if (lo < windows_.front().start_ns) return std::nullopt;
    for (const auto& w : windows_)
      if (w.end_ns > lo && w.start_ns < hi) windows.push_back(w);
  }
  const auto exact_since = activity::exact_since_ns();
  double energy = 0, idle_energy = 0, seconds = 0;
  // A piece of a span: exactly from the work noted while the log holds it; from its window's mean
  // where the log no longer does (a long window of the same work: the isolated protocols'). After
  // the last window (its clocks not chosen yet) the latest decision's.
  const auto add_piece = [&](std::int64_t a, std::int64_t b, const window_mean* w) {
    const double s = static_cast<double>(b - a) * 1e-9;
    if (s <= 0) return;
    if (w && a < exact_since) {
      energy += w->total_mw * s;
    } else {
      energy += total_of(mean_power(a, b)) * s;
    }
    idle_energy += (w ? w->idle_mw : idle_at_mw(a)) * s;
    seconds += s;
  };
  for (const auto& [a, b] : spans) {
    std::int64_t t = a;
    for (const auto& w : windows) {
      if (w.end_ns <= t || w.start_ns >= b) continue;
      // A gap between windows (the simulator's thread stalled) is modelled all the same.
      if (w.start_ns > t) add_piece(t, w.start_ns, nullptr);
      const auto piece_end = std::min(b, w.end_ns);
      add_piece(std::max(t, w.start_ns), piece_end, &w);
      t = piece_end;
    }
    if (t < b) add_piece(t, b, nullptr);
  }
  if (!(seconds > 0)) return std::nullopt;
  platform::modelled_power out;
  out.power_w = energy / seconds / 1000.0;
  out.dynamic_w = (energy - idle_energy) / seconds / 1000.0;
  out.seconds = seconds;
  return out;
}

std::vector<std::pair<std::string, double>> rail_simulator::rails_mw() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rails_;
}

double rail_simulator::total_mw() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_;
}

double rail_simulator::host_load() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return host_load_;
}

speed_status rail_simulator::speed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return speed_;
}

}  // namespace jetperf::sim
