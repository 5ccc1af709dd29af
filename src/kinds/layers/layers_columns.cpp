#include <jetperf/kinds/layers/layers_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& layers_columns() {
  static const column_table table{
      measure::join_columns({
          {
              {"network", column_type::text, param, "", "zoo or user network", true},
              {"device", column_type::text, param, "", "cuda or cpu", false},
              {"layer_index", column_type::integer, param, "", "layer position; -1 = the whole network end to end", false},
              {"layer_name", column_type::text, param, "", "layer (torchvision module path at block granularity)", true},
              {"layer_type", column_type::text, param, "", "conv, linear, pool, block, network, ...", true},
              {"latency_mean_s", column_type::number, metric, "s", "mean latency of one run", true, /*main=*/true},
          },
          measure::power_columns(),
          measure::setting_columns(false),
          {
              {"granularity", column_type::text, param, "", "block or op", false},
              {"batch", column_type::integer, param, "", "batch size", false},
              {"dtype", column_type::text, param, "", "float or half", false},
              {"input_size", column_type::integer, param, "px",
               "input height and width of a zoo network (null: a user network's own input shape)", false},
              {"repeat", column_type::integer, param, "", "which run of the job (spec.repeats), from 0", false},
              {"backend", column_type::text, metric, "", "library that ran the layer", false},
              {"input_shapes", column_type::text, param, "", "input tensor shapes", false},
              {"output_shape", column_type::text, param, "", "output tensor shape", false},
              {"params", column_type::integer, param, "", "learnable parameters", false},
              {"macs", column_type::integer, param, "", "multiply-accumulates per run (batch included)", false},
              {"flops", column_type::integer, param, "", "floating-point operations per run (batch included)", false},
              {"functional_layer_count", column_type::integer, param, "", "end-to-end rows: layers in the network", false},
              {"ops", column_type::integer, param, "", "ops the layer (or network) spans", false},
              {"protocol", column_type::text, param, "", "adaptive, fixed or in_context", false},
              {"latency_count", column_type::integer, metric, "", "timed runs behind the latency", false},
              {"latency_median_s", column_type::number, metric, "s", "median latency", false},
              {"latency_std_s", column_type::number, metric, "s", "standard deviation of the latency", false},
              {"latency_min_s", column_type::number, metric, "s", "fastest run", false},
              {"latency_max_s", column_type::number, metric, "s", "slowest run", false},
              {"latency_rse", column_type::number, metric, "", "relative standard error of latency_mean_s", false},
              {"window_s", column_type::number, metric, "s", "length of the power window", false},
              {"window_runs", column_type::integer, metric, "", "runs in the power window", false},
              {"sensor_update_period_s", column_type::number, metric, "s", "how often the power sensor updates", false},
              {"sensor_samples", column_type::integer, metric, "",
               "the power sensors' averaging count during the point (spec.sensor_samples; null: none to set)", false},
              {"gflops", column_type::number, metric, "GFLOP/s", "flops / latency_mean_s", false},
              {"layer_latency_sum_s", column_type::number, metric, "s",
               "end-to-end rows: sum of the isolated layers' latencies", false},
              {"layers_over_end_to_end", column_type::number, metric, "",
               "end-to-end rows: layer_latency_sum_s / latency_mean_s (far from 1: the layers do not add up)", false},
              {"kernels", column_type::list, metric, "",
               "what ran each op, \"op: kernel\" (oneDNN's impl_info_str, e.g. brg:avx512_core; +reorder when a layout "
               "conversion ran before it)", false},
              {"in_context", column_type::object, metric, "",
               "end-to-end rows: each layer's latency inside the whole network {layer index: {name, median_s, p25_s, "
               "p75_s, runs}} (the summary's layers_in_context sets it beside the isolated one)", false},
              {"power_ci95_w", column_type::number, metric, "W",
               "in_context layer rows: half-width of power_w's 95% interval (from the estimate's residuals)", false},
              {"energy_ci95_j", column_type::number, metric, "J", "in_context layer rows: half-width of energy_j's 95% interval",
               false},
              {"layer_resolution", column_type::text, metric, "",
               "in_context layer rows: resolved (within target_half_width), not_converged (its own wider interval), "
               "merged (the readings could not tell it from its neighbours: power_w is theirs together), "
               "runs_nothing (an alias), unresolvable", true},
              {"merged_with", column_type::text, metric, "", "in_context merged rows: the layers it was measured with",
               false},
              {"layer_readings", column_type::integer, metric, "",
               "in_context layer rows: sensor readings whose window overlapped the layer", false},
              {"layer_energy_sum_j", column_type::number, metric, "J",
               "in_context end-to-end row: the layers' energy_j added up (compare with energy_j)", false},
              {"layer_energy_sum_ci95_j", column_type::number, metric, "J", "half-width of its 95% interval", false},
              {"estimator", column_type::object, metric, "",
               "in_context end-to-end row: runs, readings, units, columns, merges, condition_number, residual_rms_w, "
               "phase_lock, jitter, the sensor's fitted update period and lateness, between_runs (the pauses and "
               "the board's power there)", false},
          },
          measure::window_columns(),
          measure::setting_detail_columns(),
      }),
      true,
      // in_context points hold their layers' rows (the end-to-end row first); others give one row.
      "layer_rows"};
  return table;
}

}  // namespace jetperf::kinds
