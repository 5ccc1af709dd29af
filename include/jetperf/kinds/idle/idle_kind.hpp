#pragma once
// The `idle` kind: measures the board at rest for `duration_s`, one point per repeat. It is the
// baseline every power figure is compared with, and it exercises the whole job pipeline.
#include <cstdint>
#include <memory>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/jobs/workload.hpp>

namespace jetperf::kinds {

struct idle_spec {
  double duration_s = 1.0;
  std::int64_t repeats = 1;

  /// Validates field by field (validation_error "spec.<field>") and fills the declared defaults.
  static idle_spec parse(const record& spec, const platform::board_offer& offered = {});
  /// A stored spec reads as a request's: its fields are all declared and bound.
  static idle_spec stored(const record& normalized) { return parse(normalized); }
  record to_record() const;
};

struct idle_point {
  std::int64_t repeat = 0;
};

const std::vector<spec_field>& idle_spec_fields();
const column_table& idle_columns();
std::vector<idle_point> expand(const idle_spec& spec);

std::unique_ptr<jobs::workload> make_idle_kind();

}  // namespace jetperf::kinds
