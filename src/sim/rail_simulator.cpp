#include <jetperf/sim/rail_simulator.hpp>

#include <algorithm>
#include <cmath>

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

void rail_simulator::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = false;
  }
  thread_ = std::thread([this] {
    name_this_thread("jp-sim");
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
  // steady_clock is CLOCK_MONOTONIC: the windows are on the daemon's timeline.
  const auto ns = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  };
  auto period = follow_averaging();
  auto next = std::chrono::steady_clock::now() + period;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    cv_.wait_until(lock, next, [this] { return stop_; });
    if (stop_) break;
    lock.unlock();
    try {
      step_window(ns(next - period), ns(next));
    } catch (const std::exception& e) {
      // The tree may be mid-rebuild; the next step retries.
      spdlog::debug("rail simulator step failed: {}", e.what());
    }
    // The chip keeps its own schedule: updates this thread was too late for are skipped, not
    // crowded in after it. A new averaging count takes effect from the next conversion.
    period = follow_averaging();
    next += period;
    const auto now = std::chrono::steady_clock::now();
    if (now > next) next += period * ((now - next) / period + 1);
    lock.lock();
  }
}

std::chrono::microseconds rail_simulator::follow_averaging() {
  const auto base = options_.period.value_or(std::chrono::microseconds(profile_.sensor.period_us));
  if (!profile_.hwmon_rails || profile_.ina.empty()) return base;
  // The chips share one averaging count as jetperfd sets them; the first one's is the schedule.
  const auto samples = get_ll(rail_dir(profile_, "", profile_.ina.front()) + "/samples");
  if (!samples || *samples <= 0) return base;
  const auto period = base * *samples / k_tree_samples;
  // Averaging fewer samples leaves more of the ADC's noise in each reading (1/sqrt(samples)).
  noise_scale_ = std::sqrt(static_cast<double>(k_tree_samples) / static_cast<double>(*samples));
  // The driver computes update_interval from the chip's configuration, rounded to a millisecond.
  const auto ms = std::to_string((period.count() + 500) / 1000) + "\n";
  for (const auto& chip : profile_.ina) put(rail_dir(profile_, "", chip) + "/update_interval", ms);
  return std::max<std::chrono::microseconds>(period, std::chrono::microseconds(100));
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

std::vector<double> rail_simulator::core_loads(const std::vector<bool>& online, const std::map<int, double>& shares) const {
  const size_t n = online.size();
  if (options_.host_load) {
    const auto host = options_.host_load();
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
  for (const auto& t : last_threads_) {
    const auto noted = shares.find(t.tid);
    loads.push_back(std::clamp(noted != shares.end() ? noted->second : t.busy / reservation_->share_of(t.tid), 0.0, 1.0));
  }
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
    if (t.busy / reservation_->share_of(t.tid) > 0.2) ++running;
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

void rail_simulator::write_rails(const domain_power& d) {
  std::uniform_real_distribution<double> jitter(-options_.noise * noise_scale_, options_.noise * noise_scale_);
  std::vector<std::pair<std::string, double>> rails;
  for (const auto& chip : profile_.ina) {
    const std::string dir = rail_dir(profile_, "", chip);
    long long shunt_sum_uv = 0;
    for (size_t k = 0; k < chip.channels.size(); ++k) {
      const auto& ch = chip.channels[k];
      const bool nc = ch.kind == rail_kind::nc;
      double mw = nc ? 0 : std::max(0.0, d.rail(ch.kind) * (1 + jitter(rng_)));
      // Every monitored rail is measured on the 5 V side of its regulator.
      long long mv = nc ? 0 : 5000 + static_cast<long long>(std::lround(jitter(rng_) * 4000));
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
  }
  double total = 0;
  bool has_input = false;
  for (const auto& chip : profile_.ina)
    for (size_t k = 0; k < chip.channels.size(); ++k)
      if (chip.channels[k].kind == rail_kind::input) has_input = true;
  for (size_t i = 0, r = 0; i < profile_.ina.size(); ++i)
    for (size_t k = 0; k < profile_.ina[i].channels.size(); ++k, ++r) {
      const bool input = profile_.ina[i].channels[k].kind == rail_kind::input;
      if (has_input ? input : true) total += rails[r].second;
    }
  if (profile_.ina.empty()) total = board_total_mw(profile_, d);
  // The carrier's INA238 measures the whole board: the total, the module's rails inside it.
  for (const auto& chip : profile_.ina238) total = write_ina238(chip, d.input * (1 + jitter(rng_)), rails);
  std::lock_guard<std::mutex> lock(mutex_);
  rails_ = std::move(rails);
  total_ = total;
}

double rail_simulator::write_ina238(const ina238_chip& chip, double mw,
                                    std::vector<std::pair<std::string, double>>& rails) {
  std::uniform_real_distribution<double> jitter(-options_.noise * noise_scale_, options_.noise * noise_scale_);
  // A 20 V USB-C PD input (the layouts' in1_input 19968 mV); 2 mOhm shunt [assumed].
  const long long mv = 20000 + static_cast<long long>(std::lround(jitter(rng_) * 16000));
  const long long ma = std::llround(std::max(0.0, mw) * 1000.0 / static_cast<double>(mv));
  // mV x mA = uW: the driver's power1_input, kept equal to V x I as the files show them.
  const long long uw = mv * ma;
  const std::string dir = ina238_dir(chip);
  put(dir + "/in0_input", std::to_string(ma / 500) + "\n");
  put(dir + "/in1_input", std::to_string(mv) + "\n");
  put(dir + "/curr1_input", std::to_string(ma) + "\n");
  put(dir + "/power1_input", std::to_string(uw) + "\n");
  rails.emplace_back("VIN", static_cast<double>(uw) / 1000.0);
  return static_cast<double>(uw) / 1000.0;
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
  // A real INA3221's register holds each new mean the moment its conversion ends. This thread can
  // make a value visible only when it writes it, so its window ends there, and starts where the
  // last one ended (no work counted twice or lost; a first update, or one after a stall of more
  // than two windows, takes the schedule's length). The rails come first, from the board's
  // settings as the last update read them: the files and threads read before them once took
  // about 1.2 ms on a loaded 2-core host (p90 1.9 ms), and a reading's window that ended a fixed
  // length before its write then moved with that, where a chip's ends as it is seen (and whole
  // rounds of in_context jobs moved conv1 together: docs/benchmarks.md).
  if (threads_) last_threads_ = threads_->sample(monotonic_ns());  // 40 us
  if (!settings_) settings_ = read_settings();
  if (options_.before_rails) options_.before_rails();
  // A reader sees the update while its files are written (a total summed from rails changes with
  // the first rail written, a single rail with its own file): the window ends half way through
  // the writes, the last update's write time standing for this one's.
  const auto taken_ns = monotonic_ns();
  const auto end_ns = taken_ns + rail_write_ns_ / 2;
  const auto length_ns = to_ns - from_ns;
  const auto start_ns = last_end_ns_ > 0 && end_ns - last_end_ns_ <= 2 * length_ns ? last_end_ns_ : end_ns - length_ns;
  last_end_ns_ = end_ns;
  const double dt_s = static_cast<double>(end_ns - start_ns) * 1e-9;
  const auto work = activity::work_between(start_ns, end_ns, intensity_factor);
  const auto core_util = core_loads(settings_->load.online, work.shares);
  write_rails(compute_power(profile_, loaded(*settings_, core_util, work.mean)));
  if (options_.after_rails) options_.after_rails();
  // (A write longer than a whole window is a stalled thread, not the time writes take.)
  rail_write_ns_ = std::min<std::int64_t>(monotonic_ns() - taken_ns, length_ns);
  // Then the rest of the board for the same window, with the settings as they are now, which the
  // next update's rails start from (a clock written during a window takes effect at its end).
  settings_ = read_settings();
  const board_load l = loaded(*settings_, core_util, work.mean);
  write_clocks(l);
  write_proc_stat(l, dt_s);
  write_temps(total_mw(), dt_s);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    host_load_ = cpu_busy(l);
  }
  // The CPU shares for the clocks just read come last: moving a thread into its cgroup quota
  // takes up to 13 ms on a 2-core host (the cgroup's migration), and before the rails it
  // delayed their update by as much, so the updates followed no clock a period fit accepts (a
  // real chip's keep their schedule). The shares take effect a few hundred microseconds later.
  reserve_speed(l);
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
