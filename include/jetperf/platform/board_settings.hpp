#pragma once
// What jobs see of board control: apply a point's settings (read back before returning), know
// what the board offers (for validation), and restore everything afterwards. The platform
// implementation journals a snapshot before the first change (crash-safe restore).
#include <cstdint>

#include <jetperf/platform/board_setting.hpp>

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
  /// board does not offer, platform_error on failure (after putting the board back).
  virtual board_setting apply(const board_setting& setting) = 0;
  /// Restores the armed snapshot and closes it; a no-op when not armed.
  virtual void restore() = 0;
};

}  // namespace jetperf::platform
