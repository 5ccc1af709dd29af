#pragma once
// What every measured point does around its workload, whatever the kind: apply the point's
// board settings (and read them back), measure the board at rest once per distinct setting,
// sleep while polling cancellation, and flag clocks that read below what was requested.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

/// The keys of a point that are board settings.
const std::vector<std::string>& board_setting_keys();

struct applied_settings {
  nlohmann::json requested = nlohmann::json::object();  ///< the point's non-null settings
  nlohmann::json read_back = nlohmann::json::object();  ///< what the board reported after applying
  std::vector<std::string> flags;                       ///< "settings_not_applied" without a board
  /// The read-back value of `key`, else the point's own.
  nlohmann::json value(const std::string& key, const nlohmann::json& point) const;
};

/// Applies the point's board settings through ctx.board (throws what the board throws).
applied_settings apply_point_settings(jobs::point_context& ctx, const nlohmann::json& point);

/// Sleeps `seconds`, polling cancellation every 10 ms; false when cancelled.
bool sleep_polling(const jobs::point_context& ctx, double seconds);

/// The board at rest under a setting: measured once per distinct setting and job, then cached.
class idle_power_cache {
 public:
  /// Mean total power over `idle_s` trimmed by `boundary_s` at each end; nullopt without a
  /// total-power channel or when cancelled.
  std::optional<double> get(jobs::point_context& ctx, const nlohmann::json& settings, double idle_s,
                            double boundary_s);

 private:
  std::int64_t job_ = -1;
  std::map<std::string, std::optional<double>> cache_;
};

/// Clock channels that read below the requested clocks in `samples` (the point's window):
/// {"clock.gpu": {"below", "samples", "min_ratio"}, ...}; empty when nothing throttled.
nlohmann::json throttled_clocks(const telemetry::sample_source& source, const std::vector<telemetry::sample>& samples,
                                const nlohmann::json& requested);

}  // namespace jetperf::measure
