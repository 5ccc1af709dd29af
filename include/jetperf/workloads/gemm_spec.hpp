#pragma once
// The `gemm` job spec: validated field by field (validation_error "spec.<field>"), expanded into
// the sweep's points in an order that minimises power-mode and clock changes.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::workloads {

/// Largest sweep accepted (points).
constexpr std::size_t k_max_gemm_points = 100000;

/// Validates `spec` against what the board offers (board_settings::offered(), or {} without a
/// board) and returns it normalized: every default filled in, sizes as [{"m","n","k"}], tensor as
/// [bool], clocks as lists of ints (absent = leave the clocks), power_modes as a list of ids.
nlohmann::json normalize_gemm_spec(const nlohmann::json& spec, const nlohmann::json& offered);

/// The points of a normalized spec: power mode outermost, then emc, gpu and cpu clocks, then
/// dtype, tensor, size. Each: {power_mode, emc_freq_hz, gpu_freq_hz, cpu_freq_khz, device, dtype,
/// tensor, m, n, k} (null where the spec leaves a setting as it is).
std::vector<nlohmann::json> expand_gemm_spec(const nlohmann::json& spec);

/// Estimated seconds for `points` points of a normalized spec (cool-down, warm-up, window,
/// one idle baseline per distinct board setting).
double estimate_gemm_s(const nlohmann::json& spec, std::size_t points);

/// Seconds of the idle baseline measured once per distinct setting.
double gemm_idle_baseline_s(const nlohmann::json& spec);

}  // namespace jetperf::workloads
