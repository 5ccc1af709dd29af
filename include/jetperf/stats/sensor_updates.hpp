#pragma once
// When a power sensor's readings really happened. An INA3221 converts on its own free-running
// clock and the driver hands back the latest average whenever it is read, so the sampler's
// timestamp (when it read) is up to a poll period, plus the time the value took to reach the
// file, after the reading's window ended. Sub-sample estimates (layer_power_estimate.hpp) need
// the window's true end: each update is detected as a change of value, the updates are fitted
// to a regular clock (t_k = phase + k * period, the period refined from the data since the
// sensor's oscillator is not the CPU's), and every reading is placed at its fitted update time.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/stats/layer_power_estimate.hpp>

namespace jetperf::stats {

struct sensor_update_fit {
  std::vector<power_reading> readings;  ///< one per detected update, at its fitted time
  double nominal_period_s = 0;          ///< what the board's configuration says (0: unknown)
  double period_s = 0;                  ///< fitted from the changes
  /// How long after its update the sampler saw a value: median, and the spread (interquartile
  /// range) that bounds how well one reading's window end is known.
  double lateness_median_s = 0;
  double lateness_iqr_s = 0;
  std::int64_t update_ns = 0;           ///< one fitted update time (with period_s: all of them)
  /// Half the range of phases that explain the polls equally at the fitted period: how far the
  /// updates could be from where they are placed, either way, if the period is right. A poll
  /// period the update period is a multiple of never narrows it (the polls meet the updates at
  /// the same phases); one that drifts against it does, update after update. (A period nearly,
  /// not exactly, a multiple leaves the period itself uncertain, which this does not count.)
  double phase_uncertainty_s = 0;
  std::size_t changes = 0;              ///< value changes seen
  std::size_t extra_changes = 0;        ///< changes with no fitted update between their polls (not used)
  /// Why the updates cannot be placed (empty when they can): polled no faster than it updates
  /// (every poll sees a change and any phase explains them all), or no regular clock explains
  /// most of the changes.
  std::string unusable;
  /// The poll is too slow for the sensor: no later fit of the same stream can do better.
  bool poll_too_slow = false;
};

/// Fits the updates of one channel's samples (time-ordered (t_ns, value)). `nominal_period_s`
/// is the configured update interval (0: taken as the median spacing of the changes). With
/// `previous` (a fit of the same stream's beginning) only its neighbourhood is searched.
sensor_update_fit fit_sensor_updates(const std::vector<std::pair<std::int64_t, double>>& samples, double nominal_period_s,
                                     const sensor_update_fit* previous = nullptr);

}  // namespace jetperf::stats
