#pragma once
// GPU devfreq, CPU cpufreq, online cores, EMC and fan PWM (README sections 1-3, 5). Every write is
// read back: a mismatch is a platform_error naming the file and both values; a frequency the board
// does not offer is a validation_error listing the valid ones.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/clock_range.hpp>
#include <jetperf/platform/emc_setting.hpp>
#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

/// check_offered_clock (board_setting.hpp) over a clock's available list, `field` naming both
/// the refused field and the setting. ("min" and "max" are resolved by the caller that reads
/// them: api/board_views.hpp.)
long long check_frequency(long long value, const std::vector<long long>& offered, const std::string& field);

class clock_control {
 public:
  clock_control(sysfs_root root, board_discovery discovery);

  const board_discovery& discovery() const { return discovery_; }

  bool has_gpu() const { return discovery_.gpu.has_value(); }
  std::vector<long long> gpu_available_hz() const;
  long long gpu_current_hz() const;
  clock_range gpu_range() const;
  /// min = max = hz, after checking hz is offered (field "gpu_freq_hz").
  void lock_gpu(long long hz);
  /// Writes min/max in the order that keeps min <= max at every step, then the governor if given.
  void set_gpu_range(const clock_range& range);

  /// Frequencies offered by every cluster (kHz).
  std::vector<long long> cpu_available_khz() const;
  std::vector<long long> cluster_available_khz(size_t cluster) const;
  clock_range cpu_range(size_t cluster) const;
  std::optional<long long> cpu_current_khz(size_t cluster) const;
  void set_cpu_range(size_t cluster, const clock_range& range);
  /// Locks every cluster that has an online core (field "cpu_freq_khz").
  void lock_cpu(long long khz);
  /// Whether any core of the cluster is online (offline policies cannot be written).
  bool cluster_online(size_t cluster) const;

  std::vector<int> online_cores() const;
  /// Writes cpuN/online (cpu0 has no such file on most boards and is skipped when online).
  void set_core_online(int core, bool online);

  bool has_emc() const { return !discovery_.emc.kind.empty(); }
  /// The rates a lock may ask for: possible_rates when present, else the board's min and max
  /// rate and, between them, the rates the power modes cap EMC at (set_emc_mode_caps). Every
  /// mode's: the caller holds a request under the mode's cap (mode_caps.hpp).
  std::vector<long long> emc_available_hz() const;
  /// The EMC caps of the board's power modes (nvpmodel.conf), rates the EMC runs at in them.
  void set_emc_mode_caps(std::vector<long long> caps) { emc_mode_caps_ = std::move(caps); }
  emc_setting emc() const;
  /// Locks EMC at hz (field "emc_freq_hz"), the way jetson_clocks does for the family.
  void lock_emc(long long hz);
  void unlock_emc();
  /// Puts back a captured EMC setting (no offered-list check: it came from this board).
  void restore_emc(const emc_setting& setting);

  bool has_fan() const { return !discovery_.fan_pwm.empty(); }
  std::optional<int> fan_pwm() const;
  void set_fan_pwm(int pwm);

 private:
  void write_checked(const std::string& path, const std::string& value);
  void write_range(const std::string& min_path, const std::string& max_path, long long cur_max,
                   const clock_range& range);
  std::vector<long long> read_list(const std::string& path) const;

  sysfs_root root_;
  board_discovery discovery_;
  std::vector<long long> emc_mode_caps_;
};

}  // namespace jetperf::platform
