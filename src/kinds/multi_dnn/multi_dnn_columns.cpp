#include <jetperf/kinds/multi_dnn/multi_dnn_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

using namespace multi_dnn;

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& multi_dnn_columns() {
  static const column_table table{
      measure::join_columns({
          {
              declare(cols::mapping_id, param, "", "the mapping's position in the job", true),
              declare(cols::mapping_class, param, "",
               "seed 001's case: A one network, B all on the GPU, C every network whole, D some network split", true),
              declare(cols::network, param, "", "the stage's network", true),
              declare(cols::stage_index, param, "", "the stage's position in its network, from 0", true),
              declare(cols::device, param, "", "cpu or cuda", true),
              declare(cols::layer_range, param, "", "the stage's blocks, \"first-last\" (0-based, inclusive)", false),
              declare(cols::inference_count, metric, "", "stage runs completed in the window (infCount)", true),
              declare(cols::inference_mean_s, metric, "s", "mean time of one stage run (avgInfTime)", true),
              declare(cols::inference_median_s, metric, "s", "median time of one stage run", false),
              declare(cols::inference_p99_s, metric, "s", "99th percentile of one stage run", false),
              declare(cols::transfer_mean_s, metric, "s",
               "mean time copying the stage's input in (avgTransferTime; null: nothing crossed in)", false),
              declare(cols::network_throughput_ips, metric, "1/s",
               "the network's whole inferences per second in the window", true),
              declare(cols::network_inferences, metric, "", "the network's whole inferences in the window", false),
              declare(cols::network_throughput_rse, metric, "",
               "relative standard error of the network's throughput (batch means of its inference times)", false),
              declare(cols::throughput_ips, metric, "1/s", "every network's inferences per second together", true, /*main=*/true),
              declare(cols::inferences, metric, "", "every network's inferences in the window", false),
          },
          measure::power_columns(),
          measure::setting_columns(false),
          {
              declare(cols::split, param, "", "the seed's index ending the stage (1-based block)", false),
              declare(cols::backend, metric, "", "library that ran the stage", false),
              declare(cols::params, param, "", "the stage's learnable parameters", false),
              declare(cols::macs, param, "", "the stage's multiply-accumulates per inference (batch included)", false),
              declare(cols::flops, param, "", "the stage's floating-point operations per inference", false),
              declare(cols::functional_layer_count, param, "", "the stage's distinct modules plus its forward", false),
              declare(cols::mapping, param, "", "the mapping in the seed's form", false),
              declare(cols::networks, param, "", "the mapping's networks", false),
              declare(cols::set, param, "", "the generator's set of networks (-1: explicit or single-network)", false),
              declare(cols::repeat, param, "", "which run of the job (spec.repeats), from 0", false),
              declare(cols::batch, param, "", "images per inference", false),
              declare(cols::dtype, param, "", "float or half", false),
              declare(cols::threads, param, "", "CPU threads of each network", false),
              declare(cols::protocol, param, "", "adaptive or fixed", false),
              declare(cols::window_s, metric, "s", "length of the window (samplingDuration)", false),
              declare(cols::warmup_inferences, metric, "", "inferences of every network before the window", false),
              declare(cols::sensor_update_period_s, metric, "s", "how often the power sensor updates", false),
              declare(cols::tegrastats, metric, "",
               "seed 001's tegrastats aggregates over the window, from the daemon's sampler (per-core CPU "
               "utilisation and MHz, GR3D_FREQ, EMC_FREQ, RAM, temperatures, rails in mW)", false),
          },
          measure::window_columns(),
          measure::setting_detail_columns(),
      }),
      true,
      "stages"};
  return table;
}

}  // namespace jetperf::kinds
