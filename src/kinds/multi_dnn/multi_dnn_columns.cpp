#include <jetperf/kinds/multi_dnn/multi_dnn_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& multi_dnn_columns() {
  static const column_table table{
      measure::join_columns({
          {
              {"mapping_id", column_type::integer, param, "", "the mapping's position in the job", true},
              {"mapping_class", column_type::text, param, "",
               "seed 001's case: A one network, B all on the GPU, C every network whole, D some network split", true},
              {"network", column_type::text, param, "", "the stage's network", true},
              {"stage_index", column_type::integer, param, "", "the stage's position in its network, from 0", true},
              {"device", column_type::text, param, "", "cpu or cuda", true},
              {"layer_range", column_type::text, param, "", "the stage's blocks, \"first-last\" (0-based, inclusive)", false},
              {"inference_count", column_type::integer, metric, "", "stage runs completed in the window (infCount)", true},
              {"inference_mean_s", column_type::number, metric, "s", "mean time of one stage run (avgInfTime)", true},
              {"inference_median_s", column_type::number, metric, "s", "median time of one stage run", false},
              {"inference_p99_s", column_type::number, metric, "s", "99th percentile of one stage run", false},
              {"transfer_mean_s", column_type::number, metric, "s",
               "mean time copying the stage's input in (avgTransferTime; null: nothing crossed in)", false},
              {"network_throughput_ips", column_type::number, metric, "1/s",
               "the network's whole inferences per second in the window", true},
              {"network_inferences", column_type::integer, metric, "", "the network's whole inferences in the window", false},
              {"network_throughput_rse", column_type::number, metric, "",
               "relative standard error of the network's throughput (batch means of its inference times)", false},
              {"throughput_ips", column_type::number, metric, "1/s", "every network's inferences per second together", true, /*main=*/true},
              {"inferences", column_type::integer, metric, "", "every network's inferences in the window", false},
          },
          measure::power_columns(),
          measure::setting_columns(false),
          {
              {"split", column_type::integer, param, "", "the seed's index ending the stage (1-based block)", false},
              {"backend", column_type::text, metric, "", "library that ran the stage", false},
              {"params", column_type::integer, param, "", "the stage's learnable parameters", false},
              {"macs", column_type::integer, param, "", "the stage's multiply-accumulates per inference (batch included)", false},
              {"flops", column_type::integer, param, "", "the stage's floating-point operations per inference", false},
              {"functional_layer_count", column_type::integer, param, "", "the stage's distinct modules plus its forward", false},
              {"mapping", column_type::object, param, "", "the mapping in the seed's form", false},
              {"networks", column_type::list, param, "", "the mapping's networks", false},
              {"set", column_type::integer, param, "", "the generator's set of networks (-1: explicit or single-network)", false},
              {"repeat", column_type::integer, param, "", "which run of the job (spec.repeats), from 0", false},
              {"batch", column_type::integer, param, "", "images per inference", false},
              {"dtype", column_type::text, param, "", "float or half", false},
              {"threads", column_type::integer, param, "", "CPU threads of each network", false},
              {"protocol", column_type::text, param, "", "adaptive or fixed", false},
              {"window_s", column_type::number, metric, "s", "length of the window (samplingDuration)", false},
              {"warmup_inferences", column_type::integer, metric, "", "inferences of every network before the window", false},
              {"sensor_update_period_s", column_type::number, metric, "s", "how often the power sensor updates", false},
              {"tegrastats", column_type::object, metric, "",
               "seed 001's tegrastats aggregates over the window, from the daemon's sampler (per-core CPU "
               "utilisation and MHz, GR3D_FREQ, EMC_FREQ, RAM, temperatures, rails in mW)", false},
          },
          measure::window_columns(),
          measure::setting_detail_columns(),
      }),
      true,
      "stages"};
  return table;
}

}  // namespace jetperf::kinds
