#include <jetperf/workloads/layers_workload.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <jetperf/common/clock.hpp>
#include <jetperf/measure/backend_cache.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_power.hpp>
#include <jetperf/models/network.hpp>
#include <jetperf/workloads/layer_backends.hpp>
#include <jetperf/workloads/layers_results.hpp>
#include <jetperf/workloads/layers_spec.hpp>

namespace jetperf::workloads {

namespace {

using nlohmann::json;

// The adaptive window spans at least this many sensor updates: fewer and the mean power of a
// short layer is a handful of readings, whatever its RSE says.
constexpr double k_min_sensor_updates = 10;

std::string shapes_text(const std::vector<models::shape>& shapes, std::int64_t batch) {
  std::string s;
  for (const auto& sh : shapes) s += (s.empty() ? "" : ", ") + models::format_shape(sh, batch);
  return s;
}

jobs::point_result skipped(const json& point, const std::string& reason) {
  json identity = json::object();
  for (const char* key : {"network", "device", "layer_index", "layer_name"}) identity[key] = point.value(key, json());
  return measure::skipped_point(reason, std::move(identity));
}

class layers_workload final : public jobs::workload {
 public:
  explicit layers_workload(layer_backend_factory factory) : backends_(std::move(factory)) {}

  std::string kind() const override { return "layers"; }
  json normalize(const json& spec, const json& offered) const override { return normalize_layers_spec(spec, offered); }
  std::vector<json> expand(const json& spec) const override { return expand_layers_spec(spec); }
  double estimate_s(const json& spec, std::size_t points) const override { return estimate_layers_s(spec, points); }
  jobs::point_result run_point(jobs::point_context& ctx, const json& spec, const json& point) override;

  json summarize(const json&, const std::vector<store::point_record>& points) const override {
    return summarize_layers(jobs::point_rows(points));
  }
  std::vector<std::string> export_formats() const override { return {"dnnstats"}; }
  json export_results(const std::string& format, const json& spec,
                      const std::vector<store::point_record>& points) const override {
    if (format != "dnnstats") return jobs::workload::export_results(format, spec, points);
    return layers_dnnstats(jobs::point_rows(points));
  }

 private:
  // Networks and their layer lists, built once per job (the zoo builds in microseconds, a user
  // network is re-validated from the stored spec).
  struct network_entry {
    models::network net;
    std::map<std::string, std::vector<models::layer>> layers;  ///< by granularity
  };
  network_entry& network(const json& spec, const std::string& name, std::int64_t job) {
    // Everything cached here belongs to one job: a new job starts clean (a cancelled or
    // failed one leaves nothing behind).
    if (job_ != job) {
      networks_.clear();
      sums_.clear();
      job_ = job;
    }
    auto it = networks_.find(name);
    if (it == networks_.end()) it = networks_.emplace(name, network_entry{network_of_spec(spec, name), {}}).first;
    return it->second;
  }

  layer_backend* backend(const std::string& device, std::string* why) { return backends_.get(device, why); }

  measure::backend_cache<layer_backend> backends_;
  std::map<std::string, network_entry> networks_;
  std::int64_t job_ = -1;
  measure::idle_power_cache idle_;
  /// Isolated-layer latency sums of this process, for the end-to-end row (the summary recomputes
  /// them from the stored points, so a resumed job still gets them there).
  struct latency_sum {
    double sum_s = 0;
    std::size_t layers = 0;
  };
  std::map<std::string, latency_sum> sums_;
};

jobs::point_result layers_workload::run_point(jobs::point_context& ctx, const json& spec, const json& point) {
  const auto name = point.at("network").get<std::string>();
  const auto device = point.at("device").get<std::string>();
  const auto index = point.at("layer_index").get<int>();
  const auto batch = point.at("batch").get<std::int64_t>();
  const auto dtype = *parse_gemm_dtype(point.at("dtype").get<std::string>());
  const auto gran_name = point.at("granularity").get<std::string>();

  auto& entry = network(spec, name, ctx.job_id);
  auto& layers = entry.layers[gran_name];
  if (layers.empty()) layers = models::layers_of(entry.net, models::parse_granularity(gran_name));
  if (index >= static_cast<int>(layers.size())) throw std::invalid_argument("layer index out of range");
  const models::layer layer = index < 0 ? models::whole_network(entry.net) : layers[static_cast<std::size_t>(index)];

  std::string why;
  layer_backend* be = backend(device, &why);
  if (!be) return skipped(point, why);

  // Board settings first: everything after runs under them, idle baseline included.
  const auto applied = measure::apply_point_settings(ctx, point);
  std::vector<std::string> flags = applied.flags;
  const double boundary = spec.value("boundary_s", 0.05);
  const auto idle_w = idle_.get(ctx, applied.requested, std::max(0.5, spec.value("min_time_s", 0.1)), boundary);
  if (ctx.cancelled() || !measure::sleep_polling(ctx, spec.value("cooldown_s", 0.0))) return skipped(point, "cancelled");

  be->set_threads(static_cast<int>(spec.value("threads", 0)));
  try {
    be->prepare(entry.net, layer, batch, dtype);
  } catch (const layer_unsupported& e) {
    return skipped(point, e.what());
  }
  // Warm-up: first-run allocations, algorithm choice and caches settle; these runs are discarded.
  for (std::int64_t i = 0; i < spec.value("warmup_runs", 5) && !ctx.cancelled(); ++i) be->timed_run_s();

  const bool fixed = spec.value("protocol", std::string("adaptive")) == "fixed";
  const double update_period_s = ctx.telemetry ? ctx.telemetry->update_period_s() : 0.0;
  const auto latency_samples = static_cast<std::size_t>(spec.value("latency_samples", 100));
  measure::loop_options opt;
  opt.boundary_s = boundary;
  opt.cancel = ctx.cancel;
  std::vector<double> fixed_latency;
  if (fixed) {
    // The seed's protocol: a latency run, then the layer repeated over boundary + window + boundary.
    for (std::size_t i = 0; i < latency_samples && !ctx.cancelled(); ++i) fixed_latency.push_back(be->timed_run_s());
    opt.stop.fixed_duration_s = spec.value("window_s", 5.0) + 2 * boundary;
  } else {
    // One window serves both: latency_samples runs at least, and a power window that spans enough
    // real sensor updates and whose mean has converged (RSE rule), trimmed at both ends.
    opt.stop.min_samples = latency_samples;
    opt.stop.min_time_s =
        std::max(spec.value("min_time_s", 0.1), 2 * boundary + k_min_sensor_updates * update_period_s);
    opt.stop.max_time_s = std::max(spec.value("max_time_s", 5.0), opt.stop.min_time_s);
    // Latency is a count (latency_samples runs, as the seed's users expect); the RSE rule sizes
    // the power window only. (A time-RSE target would keep noisy sub-millisecond layers running.)
    opt.stop.target_rse_time = 1e9;
    opt.stop.target_rse_power = spec.value("target_rse", 0.01);
  }
  const measure::measurement_loop loop(opt, ctx.telemetry);
  const auto res = loop.run([be] { return be->timed_run_s(); });
  if (res.cancelled || ctx.cancelled()) return skipped(point, "cancelled");
  const auto latency = fixed ? measure::compute_latency_stats(fixed_latency) : res.latency;

  jobs::point_result r;
  r.t_start_ns = res.t_start_ns;
  r.t_end_ns = res.t_end_ns;
  json& mt = r.metrics;
  mt["network"] = name;
  mt["device"] = device;
  mt["backend"] = be->name();
  mt["granularity"] = gran_name;
  mt["layer_index"] = index;
  mt["layer_name"] = layer.name;
  mt["layer_type"] = layer.type;
  mt["input_shapes"] = shapes_text(layer.input_shapes, batch);
  mt["output_shape"] = models::format_shape(layer.output_shape, batch);
  mt["params"] = layer.params;
  mt["macs"] = layer.macs * batch;
  mt["flops"] = layer.flops * batch;
  if (index < 0) {
    mt["functional_layer_count"] = entry.net.functional_layer_count();
    mt["ops"] = entry.net.ops.size();
  } else {
    mt["ops"] = layer.last - layer.first;
  }
  mt["batch"] = batch;
  mt["dtype"] = to_string(dtype);
  measure::put_settings(mt, applied, point);
  mt["protocol"] = fixed ? "fixed" : "adaptive";
  mt["latency_count"] = latency.count;
  mt["latency_mean_s"] = latency.mean_s;
  mt["latency_median_s"] = latency.median_s;
  mt["latency_std_s"] = latency.std_s;
  mt["latency_min_s"] = latency.min_s;
  mt["latency_max_s"] = latency.max_s;
  mt["latency_rse"] = std::isfinite(latency.rse) ? json(latency.rse) : json();
  mt["window_s"] = static_cast<double>(res.t_end_ns - res.t_start_ns) * 1e-9;
  mt["window_runs"] = res.latency.count;
  mt["sensor_update_period_s"] = update_period_s;
  const auto power_w = measure::put_power_metrics(mt, res, idle_w, latency.mean_s);
  mt["gflops"] = latency.mean_s > 0 ? json(static_cast<double>(layer.flops * batch) / latency.mean_s / 1e9) : json();

  measure::put_window_flags(mt, std::move(flags), ctx, res, applied, power_w.has_value());

  // The end-to-end row states how the isolated layers add up against it (seed 002's check).
  const auto sum_key = setting_label(point) + "|" + name + "|" + device;
  if (index >= 0) {
    auto& acc = sums_[sum_key];
    acc.sum_s += latency.mean_s;
    ++acc.layers;
  } else if (auto it = sums_.find(sum_key); it != sums_.end() && it->second.layers == layers.size()) {
    mt["layer_latency_sum_s"] = it->second.sum_s;
    mt["layers_over_end_to_end"] = latency.mean_s > 0 ? json(it->second.sum_s / latency.mean_s) : json();
    sums_.erase(it);
  }

  // The seed's gap: the board settles before the next layer (fixed protocol only).
  if (fixed) measure::sleep_polling(ctx, spec.value("gap_s", 2.0));
  return r;
}

}  // namespace

std::unique_ptr<jobs::workload> make_layers_workload() {
  return make_layers_workload([](const std::string& device, std::string* why) { return make_layer_backend(device, why); });
}

std::unique_ptr<jobs::workload> make_layers_workload(layer_backend_factory factory) {
  return std::make_unique<layers_workload>(std::move(factory));
}

}  // namespace jetperf::workloads
