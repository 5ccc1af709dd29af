#pragma once
// What every measured point does around its workload, whatever the kind: apply the point's
// board settings (and read them back), measure the board at rest once per distinct setting,
// sleep while polling cancellation, and flag clocks that read below what was requested.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/row.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/point_result.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

struct applied_settings {
  platform::board_setting requested;  ///< the point's set values
  platform::board_setting read_back;  ///< what the board reported after applying (empty without a board)
  std::vector<std::string> flags;     ///< "settings_not_applied" without a board
  /// The caps of the power mode the board read back (none without a board or a known mode).
  platform::mode_caps caps;
  /// Each setting as read back where the board said, else as requested.
  platform::board_setting effective() const;
};

/// A point's board setting from its stored form: power_mode, emc_freq_hz, gpu_freq_hz,
/// cpu_freq_khz (null or absent = leave as is).
platform::board_setting setting_of_point(const record& point);
/// {power_mode, emc_freq_hz, gpu_freq_hz, cpu_freq_khz}, null where unset (the points' form).
record setting_record(const platform::board_setting& s);
/// The set values only ({} for an empty setting): what was asked for, what was read back.
record set_values(const platform::board_setting& s);

/// Applies the point's board settings through ctx.board (throws what the board throws).
applied_settings apply_point_settings(point_context& ctx, const platform::board_setting& setting);

/// Sleeps `seconds`, polling cancellation every 10 ms; false when cancelled.
bool sleep_polling(const point_context& ctx, double seconds);

/// The board at rest under a setting: measured once per distinct setting and job, then cached.
class idle_power_cache {
 public:
  /// Mean total power over `idle_s` trimmed by `boundary_s` at each end; nullopt without a
  /// total-power channel or when cancelled.
  std::optional<double> get(point_context& ctx, const platform::board_setting& setting, double idle_s,
                            double boundary_s);

 private:
  std::int64_t job_ = -1;
  std::map<std::string, std::optional<double>> cache_;
};

/// Writes the board-setting columns (read back where the board said, else as requested),
/// "requested" and "read_back" (set values only) into a point's metrics.
void put_settings(row& metrics, const applied_settings& applied);

/// Writes a finished window's verdict into a point's metrics: "throttle" per clock that read below
/// its request (in the window's telemetry, or as read back after applying), then "flags" (`flags`
/// plus what ctx.fidelity flags for a window on `device` with `threads` CPU threads (0: the
/// library's default), e.g. speed_not_simulated, then throttled, settings_not_applied (a clock
/// read back above its request), max_time_reached, rse_unmet, no_power), "stop_reason" and "unmet".
void put_window_flags(row& metrics, std::vector<std::string> flags, const point_context& ctx,
                      const loop_result& res, const applied_settings& applied, bool has_power,
                      const std::string& device, int threads);

/// The clocks the board read back after applying, against the point's request and the caps of
/// the power mode it read back: a clock asked above the cap is not applied (not throttled).
struct read_back_check {
  /// Per clock read back below its request (beyond check_throttle's tolerance), keyed like its
  /// telemetry channel ("clock.gpu", "clock.cpu", "clock.emc"): {"below": 1, "samples": 1,
  /// "min_ratio", "requested", "read_back"}, the shape of a throttle entry.
  record below;
  /// Some clock read back above its request, or above the caps of the mode it read back, or it
  /// asked for more than that mode's cap (the board could not run it there).
  bool above = false;
};
read_back_check check_read_back(const applied_settings& applied);

/// A point that did not run: status "skipped", metrics = `identity` plus "reason".
point_result skipped_point(const std::string& reason, row identity);

/// Clock channels that read below the requested clocks in `samples` (the point's window):
/// {"clock.gpu": {"below", "samples", "min_ratio"}, ...}; empty when nothing throttled.
record throttled_clocks(const telemetry::sample_source& source, const std::vector<telemetry::sample>& samples,
                                const platform::board_setting& requested);

}  // namespace jetperf::measure
