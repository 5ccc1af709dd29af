#include <jetperf/kinds/gemm/gemm_estimate.hpp>

#include <algorithm>

#include <jetperf/backend/gemm_backend.hpp>
#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/kinds/common/point_estimate.hpp>

namespace jetperf::kinds {

namespace {

// Nominal FLOPs per clock cycle and the clock assumed when the point leaves it as it is: a guess
// for a board with no history (a few A78/Carmel cores with NEON; an Orin/Xavier-class GPU), which
// the first measured points replace.
double nominal_flops_per_cycle(const gemm_point& p) {
  if (p.device == "cuda") {
    if (p.dtype == "half") return p.tensor ? 4096 : 1024;
    return p.dtype == "double" ? 32 : 512;
  }
  return p.dtype == "double" ? 8 : 16;
}

// Launch and call overhead of one GEMM.
double nominal_overhead_s(const gemm_point& p) { return p.device == "cuda" ? 20e-6 : 5e-6; }

// Filling the three matrices with deterministic data before the first run.
constexpr double k_fill_s_per_element = 2e-9;

}  // namespace

measure::run_cost gemm_run_cost(const gemm_point& p) {
  measure::run_cost c;
  c.cls = p.device + "/" + p.dtype + "/tensor=" + (p.tensor ? "on" : "off");
  c.work = workloads::gemm_flops(p.size.m, p.size.n, p.size.k);
  c.clock_hz = common::device_clock_hz(p.setting, p.device);
  const double clock = c.clock_hz.value_or(p.device == "cuda" ? 1e9 : 1.5e9);
  c.prior_s = nominal_overhead_s(p) + c.work / (nominal_flops_per_cycle(p) * clock);
  return c;
}

std::vector<double> estimate_gemm_points_s(const gemm_spec& spec, const std::vector<gemm_point>& points,
                                           const measure::estimate_context& ctx) {
  std::vector<double> out;
  out.reserve(points.size());
  common::idle_baseline_estimate idle(spec.idle_baseline_s() + 2 * spec.boundary_s);
  for (const auto& p : points) {
    const auto cost = gemm_run_cost(p);
    const measure::run_time run = ctx.run ? ctx.run(cost) : measure::run_time{cost.prior_s, 0};
    const double elements = static_cast<double>(p.size.m * p.size.k + p.size.k * p.size.n + p.size.m * p.size.n);
    // Warm-up: warmup_s, and at least one run.
    double t = idle.add(p.setting) + spec.cooldown_s + elements * k_fill_s_per_element +
               std::max(spec.warmup_s, run.mean_s);
    // The adaptive rule's time RSE target is target_rse (gemm_kind.cpp); a contended window is
    // measured again.
    const double window = spec.duration_s ? *spec.duration_s + run.mean_s
                                          : common::adaptive_window_s(spec.min_time_s, spec.max_time_s,
                                                                       static_cast<std::size_t>(spec.min_samples), run,
                                                                       spec.target_rse);
    t += ctx.window_repeats * window;
    out.push_back(t);
  }
  return out;
}

}  // namespace jetperf::kinds
