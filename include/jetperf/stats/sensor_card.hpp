#pragma once
// What a power channel's readings are, measured rather than assumed (the `sensor` kind's card):
// how often they change, how they follow a load step (the window each reading averages and how
// late it shows), the smallest step between two values, and whether a read between updates
// returns the same value again. Pure functions over readings the tests give with known truth;
// the kind makes the load and reads the telemetry.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/stats/layer_power_estimate.hpp>

namespace jetperf::stats {

/// One change of the load the card made itself: when it happened (CLOCK_MONOTONIC) and which way.
struct load_edge {
  std::int64_t t_ns = 0;
  bool rising = true;
};

/// How a channel follows a load step: each reading is the mean load over `window_s`, seen
/// `delay_s` after that window ended, so a step shows half its size `lag_s` = delay + window / 2
/// after it happened.
struct step_response {
  double window_s = 0;
  double delay_s = 0;
  double lag_s = 0;
  std::size_t transitions = 0;  ///< readings caught part-way through a step (the fit takes those at the levels too)
  std::string unusable;         ///< why no response was fitted (empty when one was)
};

/// Fits the step response from readings placed at their update times (sensor_update_fit's) and
/// the load's edges, which alternate and are `half_period_s` apart at least. A reading seen t
/// after the edge stands at fraction clamp((t - delay) / window, 0, 1) of the step: the fit is
/// that ramp, by least absolute misfit, over every reading in the first half of the stretch
/// after each edge (those at either level too, which hold the ramp's ends). Each side's level is
/// the median of the readings in the later half of its stretch (the step long settled).
/// With the channel's update period (> 0) and poll spacing, the ramp is held to what a sensor can
/// be (a delay from minus half a poll to a period, a window from a quarter of a period to two);
/// one that runs into those bounds is unusable, not a figure.
step_response fit_step_response(const std::vector<power_reading>& readings, const std::vector<load_edge>& edges,
                                double half_period_s, double period_s = 0, double poll_s = 0);

/// The smallest difference between two distinct values seen (the channel's resolution, in its
/// unit); nullopt with fewer than two distinct values. Differences below `floor` (a float's
/// rounding after a unit conversion) are not steps.
std::optional<double> smallest_step(std::vector<double> values, double floor = 1e-9);

/// Of consecutive polls with no update between them (at `period_s` from `update_ns`, each poll
/// `lateness_s` after the update it may see), the fraction that read the same value: near 1 for
/// a driver that hands back its last conversion, near 0 for one that reads afresh each time.
/// nullopt when no two polls fell between the same updates (polled no faster than it updates).
std::optional<double> repeat_read_fraction(const std::vector<std::pair<std::int64_t, double>>& polls,
                                           std::int64_t update_ns, double period_s, double lateness_s);

/// The polls with each torn update made whole: a channel read from two files (hwmon's voltage and
/// current) read between the driver's two writes shows half an update, then the rest a poll or
/// two later. A change within `within_ns` of the previous one is the same update: its value is
/// taken back to where that update was first seen, so the update has one change, at its start.
std::vector<std::pair<std::int64_t, double>> merge_torn_updates(std::vector<std::pair<std::int64_t, double>> polls,
                                                                std::int64_t within_ns);

/// Median and 99th percentile of durations (s); zeros for none.
struct read_latency {
  double median_s = 0;
  double p99_s = 0;
  std::size_t reads = 0;
};
read_latency summarize_read_latency(std::vector<double> durations_s);

/// One channel's card from its polls (time-ordered (t_ns, value)) over a square wave of `edges`.
/// `nominal_period_s`: what the board's configuration says (the fit searches near it; 0: the
/// changes' own spacing, which torn reads of a two-file channel can halve).
struct channel_card {
  double period_s = 0;              ///< fitted update period (0: none could be fitted)
  std::string period_unusable;      ///< why not, when not
  std::size_t updates = 0;          ///< updates placed
  step_response step;
  std::optional<double> resolution;       ///< smallest step, in the channel's unit
  std::optional<double> repeat_fraction;  ///< repeat_read_fraction
};
channel_card card_of_channel(const std::vector<std::pair<std::int64_t, double>>& polls,
                             const std::vector<load_edge>& edges, double half_period_s, double nominal_period_s);

}  // namespace jetperf::stats
