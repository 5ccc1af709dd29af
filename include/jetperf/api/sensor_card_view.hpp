#pragma once
// The board's sensor card as GET /v1/board and every job's provenance show it: the newest
// succeeded `sensor` job's rows, its age, and whether it is stale (measured under another L4T
// release or another averaging configuration than the board has now).
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/jobs/job_service.hpp>
#include <jetperf/measure/sensor_facts.hpp>
#include <jetperf/platform/board_controller.hpp>

namespace jetperf::api {

/// What the board is now, for the staleness check.
struct sensor_card_board {
  std::string l4t;
  std::string averaging;  ///< platform::describe_sensor_averaging of the chips now
};
sensor_card_board sensor_card_board_of(const platform::board_controller& board);

/// {job_id, measured_at, age_s, l4t, averaging, stale, stale_because: [...], read_p50_us,
/// read_p99_us, channels: [{channel, update_period_ms, window_ms, lag_ms, resolution_mw,
/// cached}], gpu_channels (the same under the GPU's wave, where the job made one)}: the CPU's
/// wave's figures; nullopt when no sensor job has succeeded. `now_ns`: wall clock.
std::optional<nlohmann::json> latest_sensor_card(const jobs::job_service& jobs, const sensor_card_board& board,
                                                 std::int64_t now_ns);

/// One channel of the newest succeeded `sensor` job measured under the board's L4T `board.l4t`
/// and, with `same_averaging`, its averaging `board.averaging` (else any averaging, the newest
/// matching one first), as the figures a measurement uses (its window and delay; the period
/// where the averaging is the same). nullopt when no such card holds the channel with a fitted
/// period and step. Looks at the newest `max_jobs` sensor jobs only.
std::optional<measure::sensor_facts> sensor_card_facts(const jobs::job_service& jobs, const sensor_card_board& board,
                                                       const std::string& channel, bool same_averaging,
                                                       std::size_t max_jobs = 20);

}  // namespace jetperf::api
