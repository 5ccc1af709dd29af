#pragma once
// Comparisons over the finished points of a gemm job (GET /v1/jobs/{id}/compare?by=..., `jetperf
// compare`): tensor cores on vs off, and the most efficient setting of one parameter.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::kinds {

/// `points`: each {"params":{...},"metrics":{...},"status":"ok"} (a point_record as JSON) or a
/// flat object of params and metrics; points whose status is not "ok" are ignored.
/// by == "tensor": one row per pair of points equal in every other param:
///   {<params except tensor>, gflops_on, gflops_off, gflops_ratio, gflops_per_w_on,
///    gflops_per_w_off, gflops_per_w_ratio} (ratio = on / off; null where unknown).
/// by == any other param (e.g. "gpu_freq_hz"): one row per group of points equal in every other
///   param: {<params except by>, "best_<by>", best_gflops_per_w, best_gflops,
///   "values":[{<by>, gflops, gflops_per_w}, ...]} (best = highest gflops_per_w).
/// Throws validation_error(field "by") for a param no point has.
nlohmann::json compare_gemm_points(const std::vector<nlohmann::json>& points, const std::string& by);

/// The most efficient point (max gflops_per_w) per dtype and size, and overall:
/// {"best_per_dtype_size":[{dtype,m,n,k,params,gflops,gflops_per_w,power_w}], "best_overall":{...}|null}.
nlohmann::json best_gemm_settings(const std::vector<nlohmann::json>& points);

/// One row per group of measured points equal in every param but `repeat`, for groups of two or
/// more: {<params>, "gflops": repeat_summary, "gflops_per_w": repeat_summary, "repeats_disagree"}
/// (measure/repeat_stats.hpp); empty without repeats.
nlohmann::json gemm_repeat_stats(const std::vector<nlohmann::json>& points);

}  // namespace jetperf::kinds
