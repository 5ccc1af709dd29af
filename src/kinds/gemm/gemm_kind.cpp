#include <jetperf/kinds/gemm/gemm_kind.hpp>

#include <cmath>
#include <map>
#include <optional>

#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/kinds/gemm/gemm_columns.hpp>
#include <jetperf/kinds/gemm/gemm_compare.hpp>
#include <jetperf/kinds/gemm/gemm_estimate.hpp>
#include <jetperf/kinds/gemm/gemm_spec.hpp>
#include <jetperf/measure/modelled_truth.hpp>
#include <jetperf/kinds/common/backend_cache.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/point_latency.hpp>
#include <jetperf/kinds/common/point_power.hpp>
#include <jetperf/measure/protocols/point.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/backend/gemm_dtype.hpp>

namespace jetperf::kinds {

using namespace workloads;  // the backends and dtypes the kind measures with

namespace {


std::unique_ptr<gemm_backend> default_factory(const std::string& device, std::string* why) {
  return device == "cuda" ? make_cuda_gemm_backend(why) : make_cpu_gemm_backend(why);
}

measure::point_result skipped(const gemm_point& p, const std::string& reason) {
  row identity;
  identity.set(gemm::cols::device, p.device);
  identity.set(gemm::cols::dtype, p.dtype);
  identity.set(gemm::cols::m, p.size.m);
  identity.set(gemm::cols::n, p.size.n);
  identity.set(gemm::cols::k, p.size.k);
  identity.set(gemm::cols::tensor, p.tensor);
  return measure::skipped_point(reason, std::move(identity));
}

class gemm_kind final : public jobs::kind<gemm_spec, gemm_point> {
 public:
  explicit gemm_kind(gemm_backend_factory factory) : backends_(std::move(factory)) {}

  std::string kind() const { return "gemm"; }
  std::string description() const {
    return "A sweep of GEMMs over dtype x size x tensor cores x board settings: time, GFLOP/s, power and "
           "GFLOP/s/W per point.";
  }
  const std::vector<spec_field>& spec_fields() const { return gemm_spec_fields(); }
  const column_table& columns() const { return gemm_columns(); }

  // The spec's stored form (parse, stored, to_record) is gemm_spec's own.
  std::vector<gemm_point> expand(const gemm_spec& spec) const { return kinds::expand(spec); }
  record params_of(const gemm_point& p) const { return p.to_record(); }
  gemm_point point_of(const record& p) const { return gemm_point::of(p); }

  std::vector<double> estimate_points_s(const gemm_spec& spec, const std::vector<gemm_point>& points,
                                        const measure::estimate_context& ctx) const {
    return estimate_gemm_points_s(spec, points, ctx);
  }

  std::map<std::string, std::size_t> foreseen_skips(const gemm_spec& spec, const std::vector<gemm_point>& points) const {
    // The device's backend, made anew (the runner's cache belongs to the runner thread).
    std::string why;
    const auto be = spec.device == "cuda" ? workloads::make_cuda_gemm_backend(&why) : workloads::make_cpu_gemm_backend(&why);
    std::map<std::string, std::size_t> out;
    for (const auto& p : points) {
      if (!be) ++out[why];
      else if (auto reason = be->supports(*parse_gemm_dtype(p.dtype), p.tensor)) ++out[*reason];
    }
    return out;
  }

  measure::point_result run_point(measure::point_context& ctx, const gemm_spec& spec, const gemm_point& p);

  const std::vector<summary_table>& summary_tables() const { return gemm_summary_tables(); }
  const std::vector<compare_view>& compare_views() const { return gemm_compare_views(); }

  cell summarize(const std::vector<jobs::point_row>& rows) const {
    auto summary = best_gemm_settings(rows);
    auto repeats = gemm_repeat_stats(rows);
    if (!repeats.empty()) summary.set("repeats", std::move(repeats));
    return summary;
  }

  cell compare(const std::vector<jobs::point_row>& rows, const std::string& by) const {
    return compare_gemm_points(rows, by);
  }

 private:
  common::backend_cache<gemm_backend> backends_;
  measure::idle_power_cache idle_;
};

measure::point_result gemm_kind::run_point(measure::point_context& ctx, const gemm_spec& spec, const gemm_point& p) {
  const auto dtype = parse_gemm_dtype(p.dtype);
  if (!dtype) throw std::invalid_argument("unknown dtype " + p.dtype);

  std::string why;
  gemm_backend* be = backends_.get(p.device, &why);
  if (!be) return skipped(p, why);
  if (auto reason = be->supports(*dtype, p.tensor)) return skipped(p, *reason);

  measure::point_plan plan;
  plan.idle_s = spec.idle_baseline_s();
  plan.boundary_s = spec.boundary_s;
  plan.cooldown_s = spec.cooldown_s;
  plan.warmup_s = spec.warmup_s;
  plan.warmup_runs = 1;
  plan.contention = spec.contention;
  if (spec.duration_s) {
    plan.fixed = measure::fixed_protocol{*spec.duration_s, 0};
  } else {
    plan.adaptive.stop.min_time_s = spec.min_time_s;
    plan.adaptive.stop.max_time_s = spec.max_time_s;
    plan.adaptive.stop.min_samples = static_cast<std::size_t>(spec.min_samples);
    plan.adaptive.stop.target_rse_time = spec.target_rse;
    plan.adaptive.stop.stop_when_out_of_reach = true;
    plan.adaptive.stop.target_rse_power = spec.target_rse;
  }
  plan.prepare = [&]() -> std::optional<std::string> {
    be->set_threads(static_cast<int>(spec.threads));
    be->prepare(p.size.m, p.size.n, p.size.k, *dtype, p.tensor);
    return std::nullopt;
  };
  plan.run_once = [be] { return be->timed_run_s(); };
  plan.tracer = be->tracer();  // GPU kernels of a few runs after the window, on the timeline
  const auto m = measure::run_point(ctx, p.setting, plan, idle_);
  if (m.skipped) return skipped(p, *m.skipped);
  const auto& res = m.window;
  const auto& latency = m.latency;

  measure::point_result r;
  r.t_start_ns = res.t_start_ns;
  r.t_end_ns = res.t_end_ns;
  namespace cols = gemm::cols;
  row& mt = r.metrics;
  const auto kernels = be->kernel_names();
  std::optional<bool> tensor_used;
  if (p.device == "cpu") {
    tensor_used = false;
  } else if (!(kernels.size() == 1 && kernels[0] == "unknown")) {
    tensor_used = false;
    for (const auto& kn : kernels) tensor_used = *tensor_used || is_tensor_core_kernel(kn);
  }
  mt.set(cols::device, p.device);
  mt.set(cols::backend, be->name());
  mt.set(cols::math_mode, be->math_mode());
  mt.set(cols::dtype, to_string(*dtype));
  mt.set(cols::m, p.size.m);
  mt.set(cols::n, p.size.n);
  mt.set(cols::k, p.size.k);
  mt.set(cols::tensor, p.tensor);
  mt.set(cols::tensor_used, tensor_used);
  measure::put_settings(mt, m.applied);
  mt.set(cols::threads, spec.threads);
  mt.set(cols::window_s, static_cast<double>(res.t_end_ns - res.t_start_ns) * 1e-9);
  common::put_latency(mt,
                       {cols::iterations, cols::time_mean_s, cols::time_median_s, cols::time_min_s, cols::time_max_s,
                        cols::time_std_s, cols::time_rse},
                       latency);
  const double gflops = latency.mean_s > 0 ? gemm_flops(p.size.m, p.size.n, p.size.k) / latency.mean_s / 1e9 : 0.0;
  mt.set(cols::gflops, gflops);

  const auto power_w = common::put_power_metrics(mt, res, m.idle_w, latency.mean_s);
  measure::put_modelled(mt, ctx, res.t_start_ns, res.t_end_ns);
  mt.set(cols::gflops_per_w, power_w && *power_w > 0 ? std::optional<double>(gflops / *power_w) : std::nullopt);
  mt.set(cols::j_per_gflop, power_w && gflops > 0 ? std::optional<double>(*power_w / gflops) : std::nullopt);

  std::vector<std::string> flags = m.applied.flags;
  if (p.tensor && tensor_used && !*tensor_used) flags.push_back("tensor_requested_not_used");
  measure::put_window_flags(mt, std::move(flags), ctx, res, m.applied, power_w.has_value(), p.device,
                            static_cast<int>(spec.threads));
  mt.set(cols::kernels, kernels);
  r.cost = gemm_run_cost(p);
  r.run_s = latency.mean_s;
  r.run_cv = latency.mean_s > 0 ? latency.std_s / latency.mean_s : 0.0;
  return r;
}

}  // namespace

std::unique_ptr<jobs::workload> make_gemm_kind() { return make_gemm_kind(default_factory); }

std::unique_ptr<jobs::workload> make_gemm_kind(gemm_backend_factory factory) {
  return jobs::make_workload(gemm_kind(std::move(factory)));
}

}  // namespace jetperf::kinds
