#include <jetperf/workloads/gemm_workload.hpp>

#include <cmath>
#include <map>
#include <optional>

#include <jetperf/common/clock.hpp>
#include <jetperf/measure/backend_cache.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_power.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/workloads/gemm_compare.hpp>
#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/workloads/gemm_spec.hpp>

namespace jetperf::workloads {

namespace {

using nlohmann::json;


std::unique_ptr<gemm_backend> default_factory(const std::string& device, std::string* why) {
  return device == "cuda" ? make_cuda_gemm_backend(why) : make_cpu_gemm_backend(why);
}

class gemm_workload final : public jobs::workload {
 public:
  explicit gemm_workload(gemm_backend_factory factory) : backends_(std::move(factory)) {}

  std::string kind() const override { return "gemm"; }

  json normalize(const json& spec, const json& offered) const override { return normalize_gemm_spec(spec, offered); }

  std::vector<json> expand(const json& spec) const override { return expand_gemm_spec(spec); }

  double estimate_s(const json& spec, std::size_t points) const override { return estimate_gemm_s(spec, points); }

  jobs::point_result run_point(jobs::point_context& ctx, const json& spec, const json& point) override;

  json summarize(const json&, const std::vector<store::point_record>& points) const override {
    return best_gemm_settings(jobs::point_rows(points));
  }

  json compare(const json&, const std::vector<store::point_record>& points, const std::string& by) const override {
    return compare_gemm_points(jobs::point_rows(points), by);
  }

 private:
  gemm_backend* backend(const std::string& device, std::string* why) { return backends_.get(device, why); }

  std::optional<double> idle_power(jobs::point_context& ctx, const json& spec, const json& settings) {
    return idle_.get(ctx, settings, gemm_idle_baseline_s(spec), spec.value("boundary_s", 0.1));
  }

  measure::backend_cache<gemm_backend> backends_;
  measure::idle_power_cache idle_;
};

jobs::point_result skipped(const json& point, const std::string& reason) {
  json identity = json::object();
  for (const char* key : {"dtype", "m", "n", "k", "tensor"}) identity[key] = point.value(key, json());
  return measure::skipped_point(reason, std::move(identity));
}

jobs::point_result gemm_workload::run_point(jobs::point_context& ctx, const json& spec, const json& point) {
  const auto dtype = parse_gemm_dtype(point.at("dtype").get<std::string>());
  if (!dtype) throw std::invalid_argument("unknown dtype " + point.at("dtype").dump());
  const bool tensor = point.at("tensor").get<bool>();
  const auto m = point.at("m").get<std::int64_t>(), n = point.at("n").get<std::int64_t>(),
             k = point.at("k").get<std::int64_t>();
  const std::string device = point.value("device", std::string("cpu"));

  std::string why;
  gemm_backend* be = backend(device, &why);
  if (!be) return skipped(point, why);
  if (auto reason = be->supports(*dtype, tensor)) return skipped(point, *reason);

  // Board settings first: everything after runs under them, idle baseline included.
  const auto applied = measure::apply_point_settings(ctx, point);
  std::vector<std::string> flags = applied.flags;
  const auto idle_w = idle_power(ctx, spec, applied.requested);
  if (ctx.cancelled() || !measure::sleep_polling(ctx, spec.value("cooldown_s", 0.0))) return skipped(point, "cancelled");

  be->set_threads(static_cast<int>(spec.value("threads", 0)));
  be->prepare(m, n, k, *dtype, tensor);

  // Warm-up: clocks ramp, caches and cuBLAS heuristics settle; these runs are discarded.
  const auto warm_end = monotonic_ns() + static_cast<std::int64_t>(spec.value("warmup_s", 0.5) * 1e9);
  do {
    be->timed_run_s();
  } while (monotonic_ns() < warm_end && !ctx.cancelled());

  measure::loop_options opt_loop;
  opt_loop.stop.min_time_s = spec.value("min_time_s", 0.5);
  opt_loop.stop.max_time_s = spec.value("max_time_s", 10.0);
  opt_loop.stop.min_samples = spec.value("min_samples", 10);
  opt_loop.stop.target_rse_time = spec.value("target_rse", 0.01);
  opt_loop.stop.target_rse_power = spec.value("target_rse", 0.01);
  if (spec.contains("duration_s") && spec["duration_s"].is_number())
    opt_loop.stop.fixed_duration_s = spec["duration_s"].get<double>();
  opt_loop.boundary_s = spec.value("boundary_s", 0.1);
  opt_loop.cancel = ctx.cancel;
  const measure::measurement_loop loop(opt_loop, ctx.telemetry);
  const auto res = loop.run([be] { return be->timed_run_s(); });
  if (res.cancelled) return skipped(point, "cancelled");

  jobs::point_result r;
  r.t_start_ns = res.t_start_ns;
  r.t_end_ns = res.t_end_ns;
  json& mt = r.metrics;
  const auto kernels = be->kernel_names();
  std::optional<bool> tensor_used;
  if (device == "cpu") {
    tensor_used = false;
  } else if (!(kernels.size() == 1 && kernels[0] == "unknown")) {
    tensor_used = false;
    for (const auto& kn : kernels) tensor_used = *tensor_used || is_tensor_core_kernel(kn);
  }
  mt["device"] = device;
  mt["backend"] = be->name();
  mt["math_mode"] = be->math_mode();
  mt["dtype"] = to_string(*dtype);
  mt["m"] = m;
  mt["n"] = n;
  mt["k"] = k;
  mt["tensor"] = tensor;
  mt["tensor_used"] = tensor_used ? json(*tensor_used) : json();
  measure::put_settings(mt, applied, point);
  mt["threads"] = spec.value("threads", 0);
  mt["iterations"] = res.latency.count;
  mt["window_s"] = static_cast<double>(res.t_end_ns - res.t_start_ns) * 1e-9;
  mt["time_mean_s"] = res.latency.mean_s;
  mt["time_median_s"] = res.latency.median_s;
  mt["time_min_s"] = res.latency.min_s;
  mt["time_max_s"] = res.latency.max_s;
  mt["time_std_s"] = res.latency.std_s;
  mt["time_rse"] = std::isfinite(res.latency.rse) ? json(res.latency.rse) : json();
  const double gflops = res.latency.mean_s > 0 ? gemm_flops(m, n, k) / res.latency.mean_s / 1e9 : 0.0;
  mt["gflops"] = gflops;

  const auto power_w = measure::put_power_metrics(mt, res, idle_w, res.latency.mean_s);
  mt["gflops_per_w"] = power_w && *power_w > 0 ? json(gflops / *power_w) : json();
  mt["j_per_gflop"] = power_w && gflops > 0 ? json(*power_w / gflops) : json();

  if (tensor && tensor_used && !*tensor_used) flags.push_back("tensor_requested_not_used");
  measure::put_window_flags(mt, std::move(flags), ctx, res, applied, power_w.has_value());
  mt["kernels"] = kernels;
  return r;
}

}  // namespace

std::unique_ptr<jobs::workload> make_gemm_workload() { return make_gemm_workload(default_factory); }

std::unique_ptr<jobs::workload> make_gemm_workload(gemm_backend_factory factory) {
  return std::make_unique<gemm_workload>(std::move(factory));
}

}  // namespace jetperf::workloads
