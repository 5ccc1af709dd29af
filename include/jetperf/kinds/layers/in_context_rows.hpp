#pragma once
// The in_context protocol's typed result (measure/protocols/in_context.hpp) as the layers kind
// stores it: one item per layer in the point's row list, and the estimator's diagnostics on the
// end-to-end row.
#include <jetperf/common/cell.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/measure/protocols/in_context.hpp>

namespace jetperf::kinds {

/// One layer's item: layer_index, layer_name, layer_type, its latency columns, layer_resolution
/// and, with a figure, power_w, power_ci95_w, energy_j, energy_ci95_j, dynamic_power_w,
/// dynamic_energy_j, layer_readings (flags ["edge_limited"], merged_with where they apply).
row in_context_layer_row(const measure::in_context_layer& l);

/// A merged group's item, after the layers': layer_index null, layer_name its members joined by
/// " + ", layer_type and layer_resolution `group`, merged_with its members, latency_mean_s their
/// mean times added up, and the group's power and energy columns as a layer's.
row in_context_group_row(const measure::in_context_group& g);

/// The end-to-end row's `estimator` column.
record in_context_estimator_record(const measure::in_context_diagnostics& e);

}  // namespace jetperf::kinds
