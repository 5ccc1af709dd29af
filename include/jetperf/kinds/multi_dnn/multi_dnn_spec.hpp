#pragma once
// The `multi_dnn` job spec (seed 001's multi-DNN dataset generator): explicit mappings and/or the
// seed's generator options, the CPU threads each network gets, the measurement protocol and the
// board-setting axes shared with the other kinds. parse() validates field by field
// (validation_error "spec.<field>", a mapping's errors "spec.mappings[i].<network>.<index>").
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/kinds/multi_dnn/mapping.hpp>
#include <jetperf/kinds/multi_dnn/mapping_generator.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/platform/board_setting.hpp>

namespace jetperf::kinds {

/// Largest job accepted (points: mappings x board settings x repeats).
constexpr std::size_t k_max_multi_dnn_points = 20000;

struct multi_dnn_spec {
  std::vector<mapping> mappings;  ///< explicit ones, validated
  generator_options generator;    ///< used when generator.samples > 0 or single/gpu-only maps are asked
  bool generate = false;
  std::int64_t batch = 1;
  std::string dtype = "float";
  std::int64_t threads = 1;  ///< CPU threads each network's CPU stages use
  bool pin = false;          ///< pin each network's thread (and its pool) to cores of its own
  std::string protocol = "adaptive";
  double window_s = 30, boundary_s = 0.05, target_rse = 0.01, min_time_s = 1, max_time_s = 30, cooldown_s = 0;
  std::int64_t warmup_runs = 3;
  std::int64_t repeats = 1;
  measure::contention_policy contention;  ///< contention_threshold, max_retries
  record board_axes;
  cell tags;  ///< as the request gave them (null: none)

  static multi_dnn_spec parse(const record& spec, const platform::board_offer& offered);
  /// A stored (normalized) spec, already validated at submission.
  static multi_dnn_spec stored(const record& normalized);
  record to_record() const;
  bool fixed() const { return protocol == "fixed"; }
  /// Every mapping the job measures: the explicit ones, then the generated ones.
  std::vector<generated_mapping> all_mappings() const;
};

const std::vector<spec_field>& multi_dnn_spec_fields();

/// What a mapping may name on this build and board: the zoo's networks, their block counts and
/// splittable boundaries, and the devices.
mapping_rules multi_dnn_rules(const platform::board_offer& offered);

/// One mapping measured under one board setting, in one repeat of the job.
struct multi_dnn_point {
  platform::board_setting setting;
  std::int64_t repeat = 0;
  std::int64_t mapping_id = 0;  ///< its index among the spec's mappings
  generated_mapping mapping;
  /// The board setting's keys (null where unset), repeat, mapping_id, mapping_class, set,
  /// mapping (the seed's form) and networks: as stored.
  record to_record() const;
  /// A stored point read back (trusted: it was validated at submission).
  static multi_dnn_point of(const record& point);
};

/// The points: repeat outermost, then board setting, then mapping.
std::vector<multi_dnn_point> expand(const multi_dnn_spec& spec);

}  // namespace jetperf::kinds
