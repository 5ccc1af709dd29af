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
              with_spread(declare(cols::time_mean_s, metric, "s", "mean time of one GEMM", true, /*main=*/true),
                          cols::time_std_s, cols::iterations),
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

const std::vector<summary_table>& gemm_summary_tables() {
  using f = summary_format;
  using from = summary_source;
  // What names a row: its dtype and size, then tensor and the board setting, which sit in the
  // row's params (`prefix`); a clock no point set reads "-". Then the table's own columns.
  const auto setting_then = [](const std::string& prefix, const std::vector<summary_column>& tail) {
    std::vector<summary_column> c;
    for (const char* key : {"dtype", "m", "n", "k"}) c.push_back({key, key, "", f::value, from::row, ""});
    for (const char* key : {"tensor", "power_mode", "gpu_freq_hz", "cpu_freq_khz", "emc_freq_hz"})
      c.push_back({key, prefix + key, "", f::value, from::row, ""});
    c.insert(c.end(), tail.begin(), tail.end());
    return c;
  };
  static const std::vector<summary_table> tables{
      {"best",
       "best per dtype and size (GFLOP/s per watt drawn, and over idle)",
       "best_per_dtype_size",
       "",
       setting_then("params.",
                    {{"gflops_per_w", "gflops_per_w", "GFLOP/s/W", f::value},
                     {"gflops", "gflops", "GFLOP/s", f::value},
                     {"power_w", "power_w", "W", f::value},
                     {"over_idle_cpu_freq_khz", "over_idle.params.cpu_freq_khz", "kHz", f::value},
                     {"over_idle_gpu_freq_hz", "over_idle.params.gpu_freq_hz", "Hz", f::value},
                     {"gflops_per_dynamic_w", "over_idle.gflops_per_dynamic_w", "GFLOP/s/W", f::value}}),
       "best per dtype and size: - (no point measured power, or each one was left out of the verdict: see the "
       "caveats)"},
      {"repeats",
       "across repeats (GFLOP/s mean, 95% interval)",
       "repeats",
       "",
       setting_then("",
                    {{"gflops_mean", "gflops.mean", "GFLOP/s", f::value},
                     {"ci95_low", "gflops.ci95_low", "GFLOP/s", f::value},
                     {"ci95_high", "gflops.ci95_high", "GFLOP/s", f::value},
                     {"n", "gflops.n", "", f::value},
                     {"disagree", "repeats_disagree", "", f::value}}),
       ""}};
  return tables;
}

}  // namespace jetperf::kinds
