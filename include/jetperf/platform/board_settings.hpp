#pragma once
// What jobs see of board control: apply a point's settings (read back before returning), know
// what the board offers (for validation), and restore everything afterwards. The platform
// implementation journals a snapshot in SQLite before the first change (crash-safe restore).
#include <cstdint>

#include <nlohmann/json.hpp>

namespace jetperf::platform {

class board_settings {
 public:
  virtual ~board_settings() = default;

  /// What can be set, for spec validation:
  /// {"power_modes":[{"id":0,"name":"MAXN"},...], "gpu_freqs_hz":[...], "cpu_freqs_khz":[...],
  ///  "emc_freqs_hz":[...], "has_cuda_device":bool, "gpu_memory_bytes":N, "memory_bytes":N}
  virtual nlohmann::json offered() const = 0;
  /// Snapshot the board before the first change for this job (idempotent; journaled).
  virtual void arm(std::int64_t job_id) = 0;
  /// Applies settings with keys power_mode (id), gpu_freq_hz, cpu_freq_khz, emc_freq_hz (absent
  /// = leave as is); locks the clocks, waits until they read back and returns what was read back.
  /// Throws validation_error for values the board does not offer, platform_error on failure.
  virtual nlohmann::json apply(const nlohmann::json& settings) = 0;
  /// Current settings as read from the board (same keys as apply returns).
  virtual nlohmann::json current() const = 0;
  /// Restores the armed snapshot and closes it; a no-op when not armed.
  virtual void restore() = 0;
};

}  // namespace jetperf::platform
