#pragma once
// Where the sensor's averaging windows end, against where its updates are seen. The update clock
// is fitted from when a poll first sees each new value; the window that value averages ended a
// little before, by however long the sensor (its driver, its rail files) takes to publish it,
// which no poll can see. Every reading shifted by the same wrong amount moves the power of a layer
// beside a step in power (the first layer after a pause) by up to a few percent, the same way in
// every run: no number of runs narrows it, and the residuals' scatter does not show it. How
// sharply the runs fix it is the range of offsets they fit about as well as the best one, which
// widens the intervals with the fit's own placement uncertainty (widen_for_placement), on a
// Jetson's rails and on a GPU's NVML alike. The best offset is not applied by in_context: it
// follows what the model misses (a block's ops, the pauses) as much as the sensor.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <jetperf/stats/layer_power_estimate.hpp>
#include <jetperf/stats/sensor_updates.hpp>

namespace jetperf::stats {

struct window_offset_fit {
  double offset_ns = 0;      ///< every reading's window end moved by this (negative: earlier)
  double half_width_ns = 0;  ///< the offsets within the 95% profile range of the best one, half their span
  double rss_gain = 0;       ///< the residual sum at no offset over the best one's (>= 1)
  std::size_t solves = 0;
};

/// The offset in [earliest_ns, latest_ns] (steps of step_ns, then tenths of a step around the
/// best; 0 always tried) whose readings `est` fits with the least residual sum of squares per
/// reading, and the range of offsets whose sum lies within 3.84 residual variances of the best
/// (the profile's 95% range for one parameter). Leaves `est` with `readings` as given. An offset
/// whose readings leave no spare rows is left out; none left: offset 0, half width 0.
window_offset_fit fit_window_offset(layer_power_estimator& est, const std::vector<power_reading>& readings,
                                    double earliest_ns, double latest_ns, double step_ns);

/// `readings` with every window end moved by `offset_ns`.
std::vector<power_reading> shifted_readings(std::vector<power_reading> readings, double offset_ns);

/// How far the readings' fitted update times may be off, either way (95%): the fit's own phase
/// uncertainty, and at least 5% of the polls' median spacing (`polls`: the reading's polls).
double placement_uncertainty_ns(const sensor_update_fit& fit, const std::vector<std::pair<std::int64_t, double>>& polls);

/// Widens each unit's interval in `result` (a solve of `est` over `readings`) by what moving every
/// reading by `shift_ns` either way moves its power (half the spread, added to the interval): the
/// residuals do not see an error shared by every reading's placement. A unit widened past the
/// estimator's target makes the result no longer converged. Leaves `est` with `readings`.
void widen_for_placement(layer_power_estimator& est, const std::vector<power_reading>& readings, double shift_ns,
                         layer_power_result& result);

}  // namespace jetperf::stats
