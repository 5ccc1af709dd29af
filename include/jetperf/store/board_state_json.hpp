#pragma once
// A board snapshot (platform::board_state) as the journal stores it (snapshots.state_json) and
// as GET /v1/clocks shows it under "state": one form, so a journal written by an earlier
// version reads back and the API shows what would be journaled.
#include <nlohmann/json.hpp>

#include <jetperf/platform/board_state.hpp>

namespace jetperf::store {

/// {"power_mode","gpu":{min,max,governor},"cpu":[{cores,min,max,governor}],"online_cores",
///  "emc":{rate,min,max,locked,request},"fan_pwm","sensors":[{dir,samples}]}; null where absent.
nlohmann::json board_state_json(const platform::board_state& state);
/// Reads board_state_json's form; a snapshot from before sensors (or EMC min, max, request)
/// existed reads with none. Throws validation_error("state") on a malformed snapshot.
platform::board_state board_state_from_json(const nlohmann::json& j);

}  // namespace jetperf::store
