#pragma once
// The throttle state /metrics exports: each clock against its floor, from the board's clock
// state (clock_state_json of board_controller::clocks(), GET /v1/clocks) and the sampler's latest readings.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/telemetry/prometheus.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::api {

/// "gpu": gpu_cur_hz against gpu_min_hz; "cpu<N>": core N's clock.cpuN reading against the min
/// of its cluster (state.cpu[].cores, kHz); "emc": the rate against the request while locked.
/// A clock the state or the readings do not give is left out.
std::vector<telemetry::prometheus_clock_floor> clock_floors(const nlohmann::json& clocks,
                                                            const std::vector<telemetry::channel_info>& channels,
                                                            const std::vector<std::optional<double>>& values);

}  // namespace jetperf::api
