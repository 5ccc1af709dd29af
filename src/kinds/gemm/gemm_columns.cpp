#include <jetperf/kinds/gemm/gemm_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

using namespace gemm;

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& gemm_columns() {
  static const column_table table{
      measure::join_columns({
          {
              declare(cols::repeat, param, "", "which run of the sweep (spec.repeats), from 0", false),
              declare(cols::device, param, "", "cuda or cpu", false),
              declare(cols::dtype, param, "", "half, float or double", true),
              declare(cols::m, param, "", "rows of A and C", true),
              declare(cols::n, param, "", "columns of B and C", true),
              declare(cols::k, param, "", "columns of A, rows of B", true),
              declare(cols::tensor, param, "", "tensor cores requested", true),
          },
          measure::setting_columns(true),
          {
              declare(cols::time_mean_s, metric, "s", "mean time of one GEMM", true, /*main=*/true),
              declare(cols::gflops, metric, "GFLOP/s", "2mnk / time_mean_s", true),
          },
          measure::power_columns(),
          {
              declare(cols::gflops_per_w, metric, "GFLOP/s/W", "gflops / power_w: energy efficiency", true),
              declare(cols::j_per_gflop, metric, "J/GFLOP", "power_w / gflops", false),
              declare(cols::backend, metric, "", "library that ran the GEMM", false),
              declare(cols::math_mode, metric, "", "the backend's math mode", false),
              declare(cols::tensor_used, metric, "",
               "whether a tensor-core kernel ran (from the kernel names; empty when unknown)", false),
              declare(cols::threads, param, "", "CPU backend threads (0 = the library's default)", false),
              declare(cols::iterations, metric, "", "timed runs in the window", false),
              declare(cols::window_s, metric, "s", "length of the measurement window", false),
              declare(cols::time_median_s, metric, "s", "median time of one GEMM", false),
              declare(cols::time_min_s, metric, "s", "fastest run", false),
              declare(cols::time_max_s, metric, "s", "slowest run", false),
              declare(cols::time_std_s, metric, "s", "standard deviation of the runs", false),
              declare(cols::time_rse, metric, "", "relative standard error of time_mean_s", false),
          },
          measure::window_columns(),
          {
              declare(cols::kernels, metric, "", "GPU kernels the GEMM launched", false),
          },
          measure::setting_detail_columns(),
      }),
      true,
      {}};
  return table;
}

}  // namespace jetperf::kinds
