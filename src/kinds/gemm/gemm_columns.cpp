#include <jetperf/kinds/gemm/gemm_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& gemm_columns() {
  static const column_table table{
      measure::join_columns({
          {
              {"repeat", column_type::integer, param, "", "which run of the sweep (spec.repeats), from 0", false},
              {"device", column_type::text, param, "", "cuda or cpu", false},
              {"dtype", column_type::text, param, "", "half, float or double", true},
              {"m", column_type::integer, param, "", "rows of A and C", true},
              {"n", column_type::integer, param, "", "columns of B and C", true},
              {"k", column_type::integer, param, "", "columns of A, rows of B", true},
              {"tensor", column_type::boolean, param, "", "tensor cores requested", true},
          },
          measure::setting_columns(true),
          {
              {"time_mean_s", column_type::number, metric, "s", "mean time of one GEMM", true, /*main=*/true},
              {"gflops", column_type::number, metric, "GFLOP/s", "2mnk / time_mean_s", true},
          },
          measure::power_columns(),
          {
              {"gflops_per_w", column_type::number, metric, "GFLOP/s/W", "gflops / power_w: energy efficiency", true},
              {"j_per_gflop", column_type::number, metric, "J/GFLOP", "power_w / gflops", false},
              {"backend", column_type::text, metric, "", "library that ran the GEMM", false},
              {"math_mode", column_type::text, metric, "", "the backend's math mode", false},
              {"tensor_used", column_type::boolean, metric, "",
               "whether a tensor-core kernel ran (from the kernel names; empty when unknown)", false},
              {"threads", column_type::integer, param, "", "CPU backend threads (0 = the library's default)", false},
              {"iterations", column_type::integer, metric, "", "timed runs in the window", false},
              {"window_s", column_type::number, metric, "s", "length of the measurement window", false},
              {"time_median_s", column_type::number, metric, "s", "median time of one GEMM", false},
              {"time_min_s", column_type::number, metric, "s", "fastest run", false},
              {"time_max_s", column_type::number, metric, "s", "slowest run", false},
              {"time_std_s", column_type::number, metric, "s", "standard deviation of the runs", false},
              {"time_rse", column_type::number, metric, "", "relative standard error of time_mean_s", false},
          },
          measure::window_columns(),
          {
              {"kernels", column_type::list, metric, "", "GPU kernels the GEMM launched", false},
          },
          measure::setting_detail_columns(),
      }),
      true,
      {}};
  return table;
}

}  // namespace jetperf::kinds
