#pragma once
// Keeps a simulated board's live files moving, as the kernel drivers would: CPU/GPU/EMC current
// clocks follow their governors within min/max, INA3221 rail files follow the power model
// (power_model.hpp) over the CPU load of the job's own threads (workload_threads.hpp) and the
// GPU `load` file, the board's /proc/stat counts that load, and thermal zones warm up slowly
// with power. The job's threads also get a CPU share of f/f_max (cpu_reservation.hpp), so that a
// CPU workload runs as much slower as the simulated clock is lower. One thread: the board's
// clocks are chosen on the first power monitor's schedule (each window's from its load), and each
// power monitor updates on its own schedule, as an INA3221 converts on its own clock: each
// update's rails are the mean of the modelled power over its window (its period, give or take how
// late the thread wakes), which ends its lag before the moment they are written, and the CPU's
// share of it follows the density of the work the layer backends say they ran in it
// (common/work_activity.hpp). The modelled power itself, without a sensor's noise, averaging or
// lag, is kept for some seconds: the truth the estimators' figures are checked against.
#include <jetperf/sim/board_profile.hpp>
#include <jetperf/sim/cpu_reservation.hpp>
#include <jetperf/sim/power_model.hpp>
#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/platform/workload_processes.hpp>
#include <jetperf/sim/workload_threads.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace jetperf::sim {
namespace detail {
struct core_jiffies;
}

/// Whether a CPU workload's speed follows the simulated CPU clock.
struct speed_status {
  bool simulated = false;           ///< the host grants CPU reservations and the simulator uses them
  std::string reason;               ///< why not, when not
  std::string mechanism;            ///< how the share is held ("cgroup v1 cpu.cfs_quota_us", "SCHED_DEADLINE")
  std::int64_t last_refusal_ns = 0; ///< when a reservation was last refused (monotonic; 0: never)
  /// When several of the job's threads last ran under a share (monotonic; 0: never): threads
  /// held to time slices wait for each other longer than cores at a lower clock do.
  std::int64_t last_parallel_ns = 0;
  double share = 1;                 ///< the CPU share the workload threads run with now
};

struct rail_simulator_options {
  /// The update period at the tree's 16 samples (nullopt: the profile's, sensor_timing). Not a
  /// whole number of milliseconds, as a real chip's is not: a sampler ticking every millisecond
  /// sees the updates at every phase. A hwmon board's period follows its `samples` file, as the
  /// chip's conversion does (4 samples: a quarter), and so do update_interval and the noise.
  std::optional<std::chrono::microseconds> period;
  /// Busy fraction per CPU since the previous call (tests). Default: the workload threads of
  /// this process, each given a CPU share of the simulated clock.
  std::function<std::vector<double>()> host_load;
  /// Relative rail noise for every chip instead of the profile's (its noise_mw then 0): 0
  /// disables it (tests of exact values).
  std::optional<double> noise;
  /// Called in each update before its rails' window is taken (tests: a late update, whose window
  /// must reach to when it is written).
  std::function<void()> before_rails;
  /// Called in each update once the rails' files are written, before the board's other files,
  /// inside the time the next update's window reaches past its taking (tests: the order, a slow
  /// write).
  std::function<void()> after_rails;
};

class rail_simulator final : public platform::workload_processes {
 public:
  /// `root` is the board's host root directory (<dir>/root).
  rail_simulator(const board_profile& profile, std::string root, rail_simulator_options options = {});
  ~rail_simulator();  ///< stops the thread
  rail_simulator(const rail_simulator&) = delete;
  rail_simulator& operator=(const rail_simulator&) = delete;

  void start();
  /// A command job's program: its CPU time loads the simulated cores as the job's threads do
  /// (nothing with a given host_load).
  void add_process(int pid) override;
  void remove_process(int pid) override;
  void stop();
  bool running() const { return thread_.joinable(); }

  /// One update over the `dt_s` seconds to now (tests).
  void step(double dt_s);
  /// One update for the window [from_ns, to_ns] (CLOCK_MONOTONIC), every chip converting over it
  /// (less its lag), however late this is called (tests).
  void step_window(std::int64_t from_ns, std::int64_t to_ns);

  /// Last written power per rail label, in tegrastats order (NC channels included), mW.
  std::vector<std::pair<std::string, double>> rails_mw() const;
  /// Last module total (input rail or sum of rails), mW.
  double total_mw() const;
  /// Mean load of the online simulated cores in the last step, 0..1.
  double host_load() const;
  speed_status speed() const;

  /// The model's board power (the total channel's, without noise) time-weighted over `spans`,
  /// and the same less the board's idle under the clocks then (platform::modelled_power): exact
  /// from the work noted (common/work_activity.hpp) while the log still holds it, else from the
  /// means of the board's update windows they cover. nullopt for spans of no length, or
  /// older than the windows kept (two minutes).
  std::optional<platform::modelled_power> modelled(const std::vector<platform::time_span>& spans) const;

 private:
  /// One power monitor's schedule: an INA3221 chip (ina_index) or an INA238 (ina238_index).
  struct sensor_clock {
    std::optional<std::size_t> ina_index, ina238_index;
    sensor_timing timing;
    std::int64_t period_ns = 0;  ///< now (a hwmon INA3221's follows its `samples`)
    double noise_scale = 1;      ///< sqrt(16 / samples)
    std::int64_t next_ns = 0;    ///< when its next conversion is seen (its window's end and its lag)
    std::int64_t last_end_ns = 0;  ///< where its last window ended (0: none yet)
  };
  /// The clocks chosen for the board from `from_ns` on (until the next decision).
  struct decision {
    std::int64_t from_ns = 0;
    board_load load;  ///< clocks, online cores, GPU; no work
  };
  /// One board update window's modelled total and idle (mW), for spans the work log no longer holds.
  struct window_mean {
    std::int64_t start_ns = 0, end_ns = 0;
    double total_mw = 0, idle_mw = 0;
  };

  void run();
  /// Each chip's update period for its `samples` now (hwmon boards), with update_interval and
  /// the noise following it; the profile's (or options_.period) elsewhere.
  void follow_averaging();
  /// One update: every chip whose conversion is due (each at its own period; `chip_period_ns` > 0:
  /// every chip, at that period, due now), and the board's clocks chosen for the window up to
  /// `board_due_ns` when given (`board_period_ns` long).
  void update(std::optional<std::int64_t> board_due_ns, std::int64_t board_period_ns, std::int64_t chip_period_ns = 0);
  /// The modelled domains' power averaged over [from_ns, to_ns], from the clocks decided then
  /// and the work noted (each piece of the window under one decision).
  domain_power mean_power(std::int64_t from_ns, std::int64_t to_ns) const;
  /// `clocks` with the work `work` on its cores (the EMC's traffic following the demand).
  board_load with_work(const board_load& clocks, const std::vector<double>& core_util, std::optional<double> intensity) const;
  /// What the total channel reads for these domains (the input rail, the rails' sum, or Thor's
  /// INA238), without noise.
  double total_of(const domain_power& d) const;
  /// The total these clocks draw with no work on the board, mW.
  double idle_mw(const board_load& clocks) const;
  /// idle_mw of the decision in force at `t_ns` (the first one's before it; 0: none yet).
  double idle_at_mw(std::int64_t t_ns) const;
  /// Keeps a decision for [from_ns, ...) and the window's means; drops those past the horizon.
  void remember(std::int64_t from_ns, std::int64_t to_ns, const board_load& decided, const domain_power& mean);
  void put(const std::string& board_path, const std::string& text);
  std::optional<long long> get_ll(const std::string& board_path) const;
  std::string get_text(const std::string& board_path) const;
  /// What the board's files set (online cores, each CPU policy's governor and range, the GPU, the
  /// EMC's range or locked rate), read after an update's rails for the next update's.
  struct board_settings {
    board_load load;  ///< online cores and the GPU as read; the clocks are chosen per update
    struct policy_range {
      std::string governor;
      long long min_khz = 0, max_khz = 0;
    };
    std::vector<policy_range> policies;  ///< per profile cluster
    long long emc_min_hz = 0, emc_max_hz = 0;
    std::optional<long long> emc_locked_hz;
  };
  /// The board's settings now.
  board_settings read_settings();
  /// The board under `core_util` with these settings: each policy's clock as its governor picks it
  /// for the busiest core, the EMC's for the demand.
  board_load loaded(const board_settings& s, const std::vector<double>& core_util, std::optional<double> intensity) const;
  /// The online cores' mean load, 0..1.
  static double cpu_busy(const board_load& l);
  /// The current clocks' files (CPU policies, online lists, EMC rate and activity).
  void write_clocks(const board_load& l);
  /// The last sampled threads' loads (`work_shares` where they noted work: activity::work_between)
  /// packed onto the online cores, busiest first; options_.host_load's where given.
  std::vector<double> core_loads(const std::vector<bool>& online, const std::map<int, double>& work_shares,
                                 const std::set<int>& noting, const std::vector<thread_busy>& threads) const;
  /// The GPU's clock, load and power gating into `l` (devfreq follows its governor).
  void read_gpu(board_load& l);
  /// The EMC's range and lock into `s`.
  void read_emc_range(board_settings& s) const;
  /// The EMC rate and utilisation into `l`, for the CPU/GPU demand (0..1).
  void choose_emc(board_load& l, const board_settings& s, double demand) const;
  void reserve_speed(const board_load& l);
  void write_proc_stat(const board_load& l, double dt_s);
  /// One INA3221's files for the mean power of its window; its rails into `rails`.
  void write_ina(const ina_chip& chip, const domain_power& power, double noise_scale, const sensor_timing& t);
  /// One INA238's files for `mw` (its rail, VIN, into `rails`).
  void write_ina238(const ina238_chip& chip, double mw, double noise_scale, const sensor_timing& t);
  /// rails_ and total_ from every chip's last reading.
  void publish_rails();
  void write_temps(double total_mw, double dt_s);

  const board_profile& profile_;
  std::string root_;
  rail_simulator_options options_;
  std::unique_ptr<workload_threads> threads_;
  std::unique_ptr<cpu_reservation> reservation_;
  std::vector<thread_busy> last_threads_;
  unsigned steps_ = 0;
  std::vector<detail::core_jiffies> jiffies_;
  std::map<std::string, std::string> written_;
  std::mt19937 rng_{12345};
  /// The settings the next update's clocks are chosen with (read after the last update's).
  std::optional<board_settings> settings_;
  std::vector<sensor_clock> sensors_;  ///< INA3221s in profile order, then INA238s
  /// Where the board's last update window ended (monotonic ns; 0: none yet).
  std::int64_t last_end_ns_ = 0;
  /// Each chip's last rails (label, mW), in profile order, for rails_mw() and the total.
  std::vector<std::vector<std::pair<std::string, double>>> chip_rails_;
  static constexpr long long k_tree_samples = 16;  ///< the averaging count the profile's periods are for
  double die_c_ = 0;

  mutable std::mutex history_mutex_;  // guards the four below
  std::deque<decision> decisions_;
  std::deque<window_mean> windows_;
  std::vector<thread_busy> threads_seen_;  ///< last_threads_ as the last update took them
  std::vector<double> host_util_;          ///< options_.host_load's last sample

  mutable std::mutex mutex_;  // guards the results below and stop_
  std::vector<std::pair<std::string, double>> rails_;
  double total_ = 0, host_load_ = 0;
  speed_status speed_;
  bool stop_ = false;
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace jetperf::sim
