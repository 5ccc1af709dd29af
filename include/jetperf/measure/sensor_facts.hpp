#pragma once
// What a power sensor's readings are, as a measurement uses them: how often they change, how long
// a stretch each averages, and how late after that stretch a reading is seen; and where each
// figure came from. Measured, never tabled: the board's sensor card (the `sensor` job, stored),
// the point's own fit of the updates (stats/sensor_updates.hpp), or, only where neither
// exists, what the driver states (`nominal`: hwmon's update_interval; the window taken as the
// period and no delay, as an INA3221's register holds each mean the moment it ends).
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/common/cell.hpp>

namespace jetperf::measure {

struct sensor_facts {
  double period_s = 0;  ///< 0: not known
  double window_s = 0;  ///< 0: not known (taken as the period)
  double delay_s = 0;   ///< from a window's end to its reading being read
  /// "card", "fit" or "nominal", each figure's own.
  std::string period_source, window_source, delay_source;
  std::optional<std::int64_t> card_job_id;  ///< the sensor job whose card gave the window and delay

  /// The row's form: {period_s, window_s, delay_s, period_source, window_source, delay_source,
  /// card_job}.
  record to_record() const;
};

/// The board's sensor cards, as a point asks for them (the daemon keeps them; null in a point
/// context: none).
class sensor_card_book {
 public:
  virtual ~sensor_card_book() = default;
  /// The card's figures for `channel` (a telemetry channel name, "power.total") under the sensor
  /// configuration `averaging` (platform::describe_sensor_averaging's text) and the board's L4T
  /// now: a stored succeeded `sensor` job's, the newest that matches; with `same_averaging`
  /// false, one under another averaging too (its delay holds, its window and period do not).
  virtual std::optional<sensor_facts> find(const std::string& channel, const std::string& averaging,
                                           bool same_averaging) const = 0;
};

}  // namespace jetperf::measure
