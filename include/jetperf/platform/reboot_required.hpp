#pragma once
// Thrown on the job path when a point's power mode changes GPU power gating: nvpmodel applies such
// a mode only at the next boot. Nothing has been changed when it is thrown; the job runner either
// reboots into the mode (the job's spec allows it) or records the point as failed with this message.
#include <cstdint>
#include <string>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

class reboot_required : public conflict {
 public:
  reboot_required(std::int64_t power_mode, const std::string& message)
      : conflict(message, "allow_reboot"), power_mode_(power_mode) {}
  /// The mode the point asked for.
  std::int64_t power_mode() const noexcept { return power_mode_; }

 private:
  std::int64_t power_mode_;
};

}  // namespace jetperf::platform
