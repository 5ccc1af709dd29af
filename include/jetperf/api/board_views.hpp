#pragma once
// The board as the API shows it: GET /v1/board, GET/PUT /v1/power-mode, GET/PUT /v1/clocks.
// Platform answers in structs (platform/board_description.hpp, current_settings.hpp, ...); these
// are their JSON forms and the reading of the PUT /v1/clocks body. Key names and null-vs-absent
// are the API's contract (proto/openapi.yaml): change them there first.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/platform/board_description.hpp>
#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/board_request.hpp>
#include <jetperf/platform/clock_status.hpp>
#include <jetperf/platform/current_settings.hpp>
#include <jetperf/platform/power_mode_status.hpp>

namespace jetperf::api {

/// {"jetson","family","soc","model","module","compatible","l4t","jetpack"}.
nlohmann::json board_info_json(const platform::board_info& info);
/// {"gpu":{of_name,freq_dir,device_dir}|null,"cpu_clusters":[{cores,cpufreq_dir}],"cores",
///  "emc":{kind,rate,min_rate,max_rate,lock,update,possible,cap},"fan_pwm"}: board paths.
nlohmann::json board_discovery_json(const platform::board_discovery& paths);
/// GET /v1/board without the daemon's identity: board_info_json plus "modes", "default_mode",
/// "gpu", "cpu", "emc", "fan", "paths", "nvpmodel" (null where the board has none).
nlohmann::json board_json(const platform::board_description& board);
/// The "modes" array of GET /v1/board and /v1/power-mode.
nlohmann::json power_modes_json(const std::vector<platform::power_mode_description>& modes);
/// {"power_mode","power_mode_name","gpu_freq_hz","gpu_min_hz","gpu_max_hz","gpu_cur_hz",
///  "cpu_freq_khz","cpu_cur_khz","emc_freq_hz","emc_locked"}: every key, null when absent.
nlohmann::json current_settings_json(const platform::current_settings& now);
/// {"id","name","default","fan_mode"}.
nlohmann::json power_mode_json(const platform::power_mode_status& mode);
/// current_settings_json plus "armed" and "state" (store/board_state_json.hpp's form): what
/// GET /v1/clocks adds its lists to, and what /metrics reads the throttle state from.
nlohmann::json clock_state_json(const platform::clock_status& clocks);

/// `value` is a frequency, "min" or "max": the offered frequency it names, or validation_error
/// (field) saying the board offers none, what is wrong with the value, or which are offered.
long long pick_frequency(const nlohmann::json& value, const std::vector<long long>& offered, const std::string& field);
/// PUT /v1/clocks's body {"gpu": Hz|"min"|"max", "cpu": kHz|..., "emc": Hz|...}, each read
/// against `offered`; errors name the body's fields, in key order; other keys are refused.
platform::clock_request read_clock_request(const nlohmann::json& body, const platform::clock_offer& offered);
/// The same, with "min" and "max" read against `limits` (what the power mode in effect allows,
/// board_controller::clock_limits) and values against `offered`.
platform::clock_request read_clock_request(const nlohmann::json& body, const platform::clock_offer& offered,
                                           const platform::clock_offer& limits);

}  // namespace jetperf::api
