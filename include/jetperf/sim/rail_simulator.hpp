#pragma once
// Keeps a simulated board's live files moving, as the kernel drivers would: CPU/GPU/EMC current
// clocks follow their governors within min/max, INA3221 rail files follow the power model
// (power_model.hpp) over the CPU load of the job's own threads (workload_threads.hpp) and the
// GPU `load` file, the board's /proc/stat counts that load, and thermal zones warm up slowly
// with power. The job's threads also get a CPU share of f/f_max (cpu_reservation.hpp), so that a
// CPU workload runs as much slower as the simulated clock is lower. One thread, updating every
// `period` on a fixed schedule, as an INA3221 converts on its own clock: each update's rails are
// the mean since the last update (its period, give or take how late the thread wakes) up to the
// moment they are written, and the CPU's share of it follows the density of the work the layer
// backends say they ran in it (common/work_activity.hpp).
#include <jetperf/sim/board_profile.hpp>
#include <jetperf/sim/cpu_reservation.hpp>
#include <jetperf/sim/power_model.hpp>
#include <jetperf/platform/workload_processes.hpp>
#include <jetperf/sim/workload_threads.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
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
  /// Relative rail noise (INA3221 readings are never perfectly flat); 0 disables it.
  double noise = 0.003;
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

  /// One update of `dt_s` seconds (the thread calls this; tests may call it directly).
  void step(double dt_s);
  /// One update for the sensor window [from_ns, to_ns] (CLOCK_MONOTONIC).
  void step_window(std::int64_t from_ns, std::int64_t to_ns);

  /// Last written power per rail label, in tegrastats order (NC channels included), mW.
  std::vector<std::pair<std::string, double>> rails_mw() const;
  /// Last module total (input rail or sum of rails), mW.
  double total_mw() const;
  /// Mean load of the online simulated cores in the last step, 0..1.
  double host_load() const;
  speed_status speed() const;

 private:
  void run();
  /// The update period for the chips' `samples` now (hwmon boards), with update_interval and the
  /// noise following it; options_.period elsewhere.
  std::chrono::microseconds follow_averaging();
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
  std::vector<double> core_loads(const std::vector<bool>& online, const std::map<int, double>& work_shares) const;
  /// The GPU's clock, load and power gating into `l` (devfreq follows its governor).
  void read_gpu(board_load& l);
  /// The EMC's range and lock into `s`.
  void read_emc_range(board_settings& s) const;
  /// The EMC rate and utilisation into `l`, for the CPU/GPU demand (0..1).
  void choose_emc(board_load& l, const board_settings& s, double demand) const;
  void reserve_speed(const board_load& l);
  void write_proc_stat(const board_load& l, double dt_s);
  void write_rails(const domain_power& power);
  /// One INA238's files for `mw`; adds its rail (VIN) to `rails`; returns the power written, mW.
  double write_ina238(const ina238_chip& chip, double mw, std::vector<std::pair<std::string, double>>& rails);
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
  /// The settings the next update's rails are computed with (read after the last update's).
  std::optional<board_settings> settings_;
  /// Where the last update's window ended (monotonic ns; 0: none yet), and how long its rails'
  /// files took to write (the sim thread's own; at most one window).
  std::int64_t last_end_ns_ = 0, rail_write_ns_ = 0;
  static constexpr long long k_tree_samples = 16;  ///< the averaging count options_.period is for
  double noise_scale_ = 1;                         ///< options_.noise x this: sqrt(16 / samples)
  double die_c_ = 0;

  mutable std::mutex mutex_;  // guards the results below and stop_
  std::vector<std::pair<std::string, double>> rails_;
  double total_ = 0, host_load_ = 0;
  speed_status speed_;
  bool stop_ = false;
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace jetperf::sim
