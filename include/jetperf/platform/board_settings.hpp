#pragma once
// What jobs see of board control: apply a point's settings (read back before returning), know
// what the board offers (for validation), and restore everything afterwards. The platform
// implementation journals a snapshot before the first change (crash-safe restore).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/board_setting.hpp>
#include <jetperf/platform/sensor_averaging.hpp>

namespace jetperf::platform {

class board_settings {
 public:
  virtual ~board_settings() = default;

  /// What can be set, for spec validation.
  virtual board_offer offered() const = 0;
  /// Snapshot the board before the first change for this job (idempotent; journaled).
  virtual void arm(std::int64_t job_id) = 0;
  /// Applies the set values of `setting` (absent = leave as is); locks the clocks, waits until
  /// they read back and returns what was read back. Throws validation_error for values the
  /// board does not offer, platform_error on failure (after putting the board back), and
  /// reboot_required (changing nothing) when the power mode can only change through a reboot.
  virtual board_setting apply(const board_setting& setting) = 0;
  /// What the board runs at now, for the controls it has, as apply() reads it back: what a point
  /// that sets nothing records (a row says the clocks it ran at, swept or not). Empty where
  /// nothing can be read.
  virtual board_setting read_back() const { return {}; }
  /// The clock caps power mode `mode` sets (mode_caps.hpp), what a point's read-back is checked
  /// against; none by default and for an unknown mode. Cheap: no file is read, nothing is run.
  virtual mode_caps caps_of(std::int64_t mode) const {
    (void)mode;
    return {};
  }
  /// Restores the armed snapshot and closes it; a no-op when not armed. When putting the power
  /// mode back needs a reboot, the mode is switched for the next boot and the snapshot stays open:
  /// the clocks are restored by the start-up after that boot.
  virtual void restore() = 0;

  /// The power sensors' averaging, chip by chip; empty where it cannot be set.
  virtual std::vector<sensor_chip_averaging> sensor_averaging() const { return {}; }
  /// Sets every chip's averaging count to `samples` (one of offered().sensor_samples) and
  /// returns the chips read back. Part of the armed snapshot, so restore() and the start-up
  /// after a crash put it back. Throws validation_error("sensor_samples") for a count the board
  /// does not offer, platform_error (after putting the chips back) when a write fails.
  virtual std::vector<sensor_chip_averaging> set_sensor_samples(std::int64_t samples) {
    throw validation_error("sensor_samples", "this board's power sensors have no averaging count to set (" +
                                                 std::to_string(samples) + " asked)");
  }
  /// Puts the chips back as sensor_averaging() read them (a point's own change, before the job's end).
  virtual void restore_sensor_averaging(const std::vector<sensor_chip_averaging>& chips) { (void)chips; }

  /// Switches to `power_mode` although it needs a reboot (reboot_required): nvpmodel is answered
  /// YES, so a real board goes down and boots in that mode. The armed snapshot stays open and is
  /// not restored by this process. Throws what nvpmodel throws; boards without power modes refuse.
  virtual void reboot_into(std::int64_t power_mode) {
    throw conflict("this board cannot reboot into power mode " + std::to_string(power_mode), "power_mode");
  }
  /// After the boot a job asked for: arms the journaled snapshot again (the settings from before
  /// the job, not the current ones) and returns the power mode now in effect.
  virtual std::optional<std::int64_t> rearm(std::int64_t job_id) {
    arm(job_id);
    return std::nullopt;
  }
};

}  // namespace jetperf::platform
