#pragma once
// Comparisons over the finished points of a gemm job (GET /v1/jobs/{id}/compare?by=..., `jetperf
// compare`): tensor cores on vs off, and the most efficient setting of one parameter.
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/summary_table.hpp>
#include <jetperf/jobs/point_row.hpp>

namespace jetperf::kinds {

/// `points`: the job's finished points; those whose status is not "ok" are ignored.
/// by == "tensor": one row per pair of points equal in every other param:
///   {<params except tensor>, gflops_on, gflops_off, gflops_ratio, gflops_per_w_on,
///    gflops_per_w_off, gflops_per_w_ratio} (ratio = on / off; null where unknown).
/// by == any other param (e.g. "gpu_freq_hz"): one row per group of points equal in every other
///   param: {<params except by>, "best_<by>", best_gflops_per_w, best_gflops, "best_<by>_over_idle",
///   best_gflops_per_dynamic_w, left_out, "values":[{<by>, gflops, gflops_per_w,
///   gflops_per_dynamic_w, left_out?}, ...]} (best = highest gflops_per_w; over idle = highest
///   GFLOP/s per watt above the board's idle power).
/// Verdicts leave out the points flagged contended or rse_unmet (other processes took CPU time
/// from the window, or it ended short of its precision target): they are listed with the flag
/// as left_out, and each verdict counts them.
/// `by` is one of gemm_compare_views()' parameters: the workload (jobs/kind.hpp) refuses any other
/// with validation_error(field "by") before it gets here.
cell_list compare_gemm_points(const std::vector<jobs::point_row>& points, const std::string& by);

/// compare_gemm_points's rows as tables (GET /v1/kinds): tensor on vs off, and the most efficient
/// value of any other param.
const std::vector<compare_view>& gemm_compare_views();

/// The most efficient point per dtype and size, and overall, by GFLOP/s per watt drawn and by
/// GFLOP/s per watt over idle, from the points no flag leaves out:
/// {"best_per_dtype_size":[{dtype,m,n,k,params,gflops,gflops_per_w,power_w,gflops_per_dynamic_w,
///   dynamic_power_w,"over_idle":{the same}|null}], "best_overall":{...}|null,
///  "best_overall_over_idle":{...}|null, "left_out":{"contended":n,"rse_unmet":n}}.
record best_gemm_settings(const std::vector<jobs::point_row>& points);

/// One row per group of measured points equal in every param but `repeat`, for groups of two or
/// more: {<params>, "gflops", "gflops_per_w", "repeats_disagree"}, each rate a ratio_summary
/// (stats/repeat_stats.hpp): the work over the repeats' mean time (energy), its interval from the
/// time's (energy's), never below zero; empty without repeats. Implausible points take no part.
cell_list gemm_repeat_stats(const std::vector<jobs::point_row>& points);

}  // namespace jetperf::kinds
