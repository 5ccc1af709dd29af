#pragma once
// The `gemm` job spec: one parse validates it field by field (validation_error "spec.<field>")
// against what the board offers and fills every default from the declared fields; expand()
// turns it into the sweep's points in an order that minimises power-mode and clock changes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/platform/board_setting.hpp>

namespace jetperf::kinds {

/// Largest sweep accepted (points).
constexpr std::size_t k_max_gemm_points = 100000;

struct gemm_size {
  std::int64_t m = 0, n = 0, k = 0;
};

struct gemm_spec {
  std::string device;               ///< "cuda" or "cpu"
  std::vector<std::string> dtypes;  ///< "half", "float", "double"
  std::vector<gemm_size> sizes;
  std::vector<bool> tensor;
  /// power_modes, emc_freqs, gpu_freqs, cpu_freqs: lists of ints, or null = leave as is.
  record board_axes;
  std::int64_t threads = 0;
  double warmup_s = 0, min_time_s = 0, max_time_s = 0, target_rse = 0;
  std::int64_t min_samples = 0;
  std::optional<double> duration_s;  ///< a fixed window instead of the adaptive one
  double boundary_s = 0, cooldown_s = 0;
  std::int64_t repeats = 1;  ///< the whole sweep runs this many times
  measure::contention_policy contention;  ///< contention_threshold, max_retries

  /// Validates `spec` (a request's, as a record) against what the board offers ({} without a board).
  static gemm_spec parse(const record& spec, const platform::board_offer& offered);
  /// A stored spec (the output of to_record): already validated when the job was submitted.
  static gemm_spec stored(const record& normalized);
  /// The normalized spec as stored: every default filled in, sizes as [{"m","n","k"}].
  record to_record() const;

  /// Seconds of the idle baseline measured once per distinct setting.
  double idle_baseline_s() const;
};

/// One point of the sweep: a board setting (null = leave as is) and one GEMM.
struct gemm_point {
  platform::board_setting setting;
  std::string device, dtype;
  bool tensor = false;
  gemm_size size;
  std::int64_t repeat = 0;  ///< which run of the sweep, from 0
  record to_record() const;  ///< the point as its params are stored
  static gemm_point of(const record& point);
};

const std::vector<spec_field>& gemm_spec_fields();

/// How many sizes spec.sizes (as written: a list or text of ranges, N, MxNxK) stands for,
/// counted without building them (saturating); throws validation_error("spec.sizes") for a
/// malformed or out-of-range entry.
std::uint64_t count_gemm_sizes(const cell& sizes);

/// The product of the sweep's axis sizes (name, values), saturating at the uint64 maximum.
std::uint64_t gemm_point_count(const std::vector<std::pair<std::string, std::uint64_t>>& dims);

/// The points: the repeat outermost (the whole sweep runs again, so drift between repeats shows),
/// then power mode, emc, gpu and cpu clocks, then dtype, tensor, size.
std::vector<gemm_point> expand(const gemm_spec& spec);

}  // namespace jetperf::kinds
