#include <jetperf/kinds/layers/layers_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

using namespace layers;

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& layers_columns() {
  static const column_table table{
      measure::join_columns({
          {
              declare(cols::network, param, "", "zoo or user network", true),
              declare(cols::device, param, "", "cuda or cpu", false),
              declare(cols::layer_index, param, "", "layer position; -1 = the whole network end to end", false),
              declare(cols::layer_name, param, "", "layer (torchvision module path at block granularity)", true),
              declare(cols::layer_type, param, "", "conv, linear, pool, block, network, ...", true),
              with_spread(declare(cols::latency_mean_s, metric, "s", "mean latency of one run", true, /*main=*/true),
                          cols::latency_std_s, cols::latency_count),
          },
          measure::power_columns(),
          measure::setting_columns(false),
          {
              declare(cols::granularity, param, "", "block or op", false),
              declare(cols::batch, param, "", "batch size", false),
              declare(cols::dtype, param, "", "float or half", false),
              declare(cols::input_size, param, "px",
               "input height and width of a zoo network (null: a user network's own input shape)", false),
              declare(cols::repeat, param, "", "which run of the job (spec.repeats), from 0", false),
              declare(cols::backend, metric, "", "library that ran the layer", false),
              declare(cols::input_shapes, param, "", "input tensor shapes", false),
              declare(cols::output_shape, param, "", "output tensor shape", false),
              declare(cols::params, param, "", "learnable parameters", false),
              declare(cols::macs, param, "", "multiply-accumulates per run (batch included)", false),
              declare(cols::flops, param, "", "floating-point operations per run (batch included)", false),
              declare(cols::functional_layer_count, param, "", "end-to-end rows: layers in the network", false),
              declare(cols::ops, param, "", "ops the layer (or network) spans", false),
              declare(cols::protocol, param, "", "adaptive, fixed or in_context", false),
              declare(cols::latency_count, metric, "", "timed runs behind the latency", false),
              declare(cols::latency_median_s, metric, "s", "median latency", false),
              declare(cols::latency_std_s, metric, "s", "standard deviation of the latency", false),
              declare(cols::latency_min_s, metric, "s", "fastest run", false),
              declare(cols::latency_max_s, metric, "s", "slowest run", false),
              declare(cols::latency_rse, metric, "", "relative standard error of latency_mean_s", false),
              declare(cols::window_s, metric, "s", "length of the power window", false),
              declare(cols::window_runs, metric, "", "runs in the power window", false),
              declare(cols::sensor_update_period_s, metric, "s", "how often the power sensor updates", false),
              declare(cols::sensor_period_source, metric, "",
                      "where sensor_update_period_s came from: the driver's statement (nominal), the board's sensor "
                      "card (card) or the sensor's changes (fit)", false),
              declare(cols::sensor_samples, metric, "",
               "the power sensors' averaging count during the point (spec.sensor_samples; null: none to set)", false),
              declare(cols::gflops, metric, "GFLOP/s", "flops / latency_mean_s", false),
              declare(cols::layer_latency_sum_s, metric, "s",
               "end-to-end rows: sum of the isolated layers' latencies", false),
              declare(cols::layers_over_end_to_end, metric, "",
               "end-to-end rows: layer_latency_sum_s / latency_mean_s (far from 1: the layers do not add up)", false),
              declare(cols::kernels, metric, "",
               "what ran each op, \"op: kernel\" (oneDNN's impl_info_str, e.g. brg:avx512_core; +reorder when a layout "
               "conversion ran before it)", false),
              declare(cols::in_context, metric, "",
               "end-to-end rows: each layer's latency inside the whole network {layer index: {name, median_s, p25_s, "
               "p75_s, runs}} (the summary's layers_in_context sets it beside the isolated one)", false),
              declare(cols::power_ci95_w, metric, "W",
               "in_context layer rows: half-width of power_w's 95% interval (from the estimate's residuals)", false),
              declare(cols::energy_ci95_j, metric, "J", "in_context layer rows: half-width of energy_j's 95% interval",
               false),
              declare(cols::layer_resolution, metric, "",
               "in_context layer rows: resolved (within target_half_width), not_converged (its own wider interval), "
               "merged (the readings could not tell it from its neighbours: no figure of its own, its group row has "
               "theirs together), group (such a group: layer_index null, its members in merged_with), "
               "runs_nothing (an alias), unresolvable", true),
              declare(cols::merged_with, metric, "",
               "in_context merged rows: the layers it was measured with; group rows: the group's members", false),
              declare(cols::layer_readings, metric, "",
               "in_context layer rows: sensor readings whose window overlapped the layer", false),
              declare(cols::layer_energy_sum_j, metric, "J",
               "in_context end-to-end row: the layers' energy_j added up (compare with energy_j)", false),
              declare(cols::layer_energy_sum_ci95_j, metric, "J", "half-width of its 95% interval", false),
              declare(cols::estimator, metric, "",
               "in_context end-to-end row: runs, readings, units, columns, merges, condition_number, residual_rms_w, "
               "phase_lock, jitter, the sensor's fitted update period and lateness, between_runs (the pauses and "
               "the board's power there)", false),
          },
          measure::window_columns(),
          measure::setting_detail_columns(),
      }),
      true,
      // in_context points hold their layers' rows (the end-to-end row first); others give one row.
      cols::layer_rows.name};
  return table;
}


const std::vector<summary_table>& layers_summary_tables() {
  using f = summary_format;
  // One row per network, device and board setting: how much of it was measured, how long the
  // whole network took, how far the layers' sum is from it, and the energy of both.
  static const std::vector<summary_table> tables{
      {"networks",
       "",
       "networks",
       "",
       {{"network", "network", "", f::value},
        {"device", "device", "", f::value},
        {"setting", "setting", "", f::value},
        {"layers", "layers_measured", "", f::fraction, summary_source::row, "layers"},
        {"end_to_end_s", "end_to_end_latency_s", "s", f::value},
        {"layers/e2e", "layers_over_end_to_end", "", f::value},
        {"layer_energy_j", "layer_energy_sum_j", "J", f::value},
        {"end_to_end_j", "end_to_end_energy_j", "J", f::value}},
       "networks: -"}};
  return tables;
}

}  // namespace jetperf::kinds
