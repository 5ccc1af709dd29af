#include <jetperf/kinds/layers/layers_kind.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/measure/backend_cache.hpp>
#include <jetperf/kinds/layers/layers_columns.hpp>
#include <jetperf/kinds/layers/layers_estimate.hpp>
#include <jetperf/measure/point_protocol.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_power.hpp>
#include <jetperf/measure/sensor_averaging_scope.hpp>
#include <jetperf/models/network.hpp>
#include <jetperf/workloads/layer_backends.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/kinds/layers/in_context_rows.hpp>
#include <jetperf/measure/protocols/in_context.hpp>
#include <jetperf/kinds/layers/layers_results.hpp>
#include <jetperf/kinds/layers/layers_spec.hpp>

namespace jetperf::kinds {

using namespace workloads;  // the backends and dtypes the kind measures with

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

measure::point_result skipped(const json& point, const std::string& reason) {
  json identity = json::object();
  for (const char* key : {"network", "device", "layer_index", "layer_name"}) identity[key] = point.value(key, json());
  return measure::skipped_point(reason, std::move(identity));
}

// The in_context point's rows: the end-to-end row first (the point's own values), then one per
// layer. A layer row names every value it has; the network's own measurements that mean nothing
// for one layer (its rails, kernels, sample counts) are null there rather than inherited.
void put_layer_rows(json& mt, const measure::in_context_result& ic, const std::vector<models::layer>& layers,
                    std::int64_t batch) {
  static const char* network_only[] = {"power_rse", "power_samples", "window_energy_j", "window_s", "window_runs",
                                       "latency_rse", "layer_latency_sum_s", "layers_over_end_to_end", "kernels",
                                       "in_context", "functional_layer_count", "power_w", "energy_j",
                                       "dynamic_power_w", "dynamic_energy_j", "temp_max_c"};
  mt["layer_energy_sum_j"] = ic.estimated ? json(ic.sum_energy_j) : json();
  mt["layer_energy_sum_ci95_j"] = ic.estimated ? json(ic.sum_energy_ci95_j) : json();
  mt["estimator"] = in_context_estimator_json(ic.estimator);
  json rows = json::array({json::object()});
  for (const auto& layer : ic.layers) {
    auto item = in_context_layer_json(layer);
    for (const char* key : network_only)
      if (!item.contains(key)) item[key] = nullptr;
    for (auto it = mt.begin(); it != mt.end(); ++it)
      if (rail_of_column(it.key()) != "") item[it.key()] = nullptr;
    const auto& l = layers.at(item["layer_index"].get<std::size_t>());
    item["input_shapes"] = shapes_text(l.input_shapes, batch);
    item["output_shape"] = models::format_shape(l.output_shape, batch);
    item["params"] = l.params;
    item["macs"] = l.macs * batch;
    item["flops"] = l.flops * batch;
    item["ops"] = l.last - l.first;
    const auto mean = item["latency_mean_s"];
    item["gflops"] = mean.is_number() && mean.get<double>() > 0
                         ? json(static_cast<double>(l.flops * batch) / mean.get<double>() / 1e9)
                         : json();
    // A layer's own flags beside the point's (a layer row shows the point's otherwise).
    if (item.contains("flags") && mt.contains("flags") && mt["flags"].is_array()) {
      json both = mt["flags"];
      for (const auto& f : item["flags"])
        if (std::find(both.begin(), both.end(), f) == both.end()) both.push_back(f);
      item["flags"] = std::move(both);
    }
    item["layer_energy_sum_j"] = nullptr;
    item["layer_energy_sum_ci95_j"] = nullptr;
    item["estimator"] = nullptr;
    rows.push_back(std::move(item));
  }
  mt["layer_rows"] = std::move(rows);
}

class layers_kind final : public jobs::kind<layers_spec, json> {
 public:
  explicit layers_kind(layer_backend_factory factory) : make_backend_(factory), backends_(std::move(factory)) {}

  std::string kind() const { return "layers"; }
  std::string description() const {
    return "Every layer of a network run in isolation on its real input shape (latency, power, energy), then "
           "the network end to end.";
  }
  const std::vector<spec_field>& spec_fields() const { return layers_spec_fields(); }
  const column_table& columns() const { return layers_columns(); }
  layers_spec parse(const json& spec, const platform::board_offer& offered) const {
    return layers_spec::stored(normalize_layers_spec(spec, offered));
  }
  layers_spec stored(const json& spec) const { return layers_spec::stored(spec); }
  json to_json(const layers_spec& spec) const { return spec.normalized; }
  std::vector<json> expand(const layers_spec& spec) const { return expand_layers_spec(spec.normalized); }
  json point_json(const json& p) const { return p; }
  json point_of(const json& p) const { return p; }
  std::vector<double> estimate_points_s(const layers_spec& spec, const std::vector<json>& points,
                                        const measure::estimate_context& ctx) const {
    return estimate_layers_points_s(spec.normalized, points, ctx);
  }
  measure::point_result run_point(measure::point_context& ctx, const layers_spec& spec, const json& point);

  json summarize(const std::vector<json>& rows) const { return summarize_layers(rows); }
  // What the dry run says will be skipped: a device with no backend, and the layers whose ops its
  // backend cannot run in the point's dtype (half on a CPU without it), each asked once per
  // network, size, layer and dtype however many settings and repeats share it.
  std::map<std::string, std::size_t> foreseen_skips(const layers_spec& typed, const std::vector<json>& points) const {
    const auto& spec = typed.normalized;
    std::map<std::string, std::size_t> out;
    std::map<std::string, std::pair<std::unique_ptr<layer_backend>, std::string>> backends;
    std::map<std::pair<std::string, std::int64_t>, network_entry> networks;
    std::map<std::string, std::optional<std::string>> answers;
    for (const auto& point : points) {
      const auto device = point.at("device").get<std::string>();
      auto& be = backends[device];
      if (!be.first && be.second.empty()) {
        be.first = make_backend_(device, &be.second);
        if (!be.first && be.second.empty()) be.second = "no backend for device " + device;
      }
      if (!be.first) {
        ++out[be.second];
        continue;
      }
      const auto name = point.at("network").get<std::string>();
      const auto size = point_input_size(spec, point, name);
      const auto gran = point.at("granularity").get<std::string>();
      const auto index = point.at("layer_index").get<int>();
      const auto dtype_name = point.at("dtype").get<std::string>();
      const auto key = device + "/" + name + "/" + std::to_string(size.value_or(0)) + "/" + gran + "/" +
                       std::to_string(index) + "/" + dtype_name;
      auto answer = answers.find(key);
      if (answer == answers.end()) {
        auto& entry = networks.try_emplace(std::make_pair(name, size.value_or(0)),
                                           network_entry{network_of_spec(spec, name, size), {}})
                          .first->second;
        auto& layers = entry.layers[gran];
        if (layers.empty()) layers = models::layers_of(entry.net, models::parse_granularity(gran));
        const models::layer layer = index < 0 ? models::whole_network(entry.net) : layers.at(static_cast<std::size_t>(index));
        answer = answers.emplace(key, be.first->supports(entry.net, layer, *parse_gemm_dtype(dtype_name))).first;
      }
      if (answer->second) ++out[*answer->second];
    }
    return out;
  }

  std::vector<std::string> export_formats() const { return {"dnnstats"}; }
  // The seed's loops take every top-level key for a network: provenance travels beside the file.
  bool export_has_provenance(const std::string& format) const { return format != "dnnstats"; }
  nlohmann::ordered_json export_results(const std::string&, const std::vector<json>& rows) const {
    return layers_dnnstats(rows);
  }

 private:
  // Networks and their layer lists, built once per job (the zoo builds in microseconds, a user
  // network is re-validated from the stored spec).
  struct network_entry {
    models::network net;
    std::map<std::string, std::vector<models::layer>> layers;  ///< by granularity
  };
  network_entry& network(const json& spec, const std::string& name, std::optional<std::int64_t> size, std::int64_t job) {
    // Everything cached here belongs to one job: a new job starts clean (a cancelled or
    // failed one leaves nothing behind).
    if (job_ != job) {
      networks_.clear();
      sums_.clear();
      job_ = job;
    }
    const auto key = std::make_pair(name, size.value_or(0));
    auto it = networks_.find(key);
    if (it == networks_.end()) it = networks_.emplace(key, network_entry{network_of_spec(spec, name, size), {}}).first;
    return it->second;
  }

  layer_backend* backend(const std::string& device, std::string* why) { return backends_.get(device, why); }

  // Points of specs stored before input_size existed ran every zoo network at 224 pixels.
  static std::optional<std::int64_t> point_input_size(const json& spec, const json& point, const std::string& name) {
    if (!point.contains("input_size"))
      return published_input_size(spec, name) ? std::optional<std::int64_t>(224) : std::nullopt;
    if (point["input_size"].is_number_integer()) return point["input_size"].get<std::int64_t>();
    return std::nullopt;
  }

  layer_backend_factory make_backend_;  ///< for the dry run's own backends (the cache is the runner's)
  measure::backend_cache<layer_backend> backends_;
  std::map<std::pair<std::string, std::int64_t>, network_entry> networks_;  ///< by name and input size
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

measure::point_result layers_kind::run_point(measure::point_context& ctx, const layers_spec& spec, const json& point) {
  const auto& spec_json = spec.normalized;
  const auto name = point.at("network").get<std::string>();
  const auto device = point.at("device").get<std::string>();
  const auto index = point.at("layer_index").get<int>();
  const auto batch = point.at("batch").get<std::int64_t>();
  const auto dtype = *parse_gemm_dtype(point.at("dtype").get<std::string>());
  const auto gran_name = point.at("granularity").get<std::string>();
  const auto size = point_input_size(spec_json, point, name);
  const auto repeat = point.value("repeat", std::int64_t{0});

  auto& entry = network(spec_json, name, size, ctx.job_id);
  auto& layers = entry.layers[gran_name];
  if (layers.empty()) layers = models::layers_of(entry.net, models::parse_granularity(gran_name));
  if (index >= static_cast<int>(layers.size())) throw std::invalid_argument("layer index out of range");
  const models::layer layer = index < 0 ? models::whole_network(entry.net) : layers[static_cast<std::size_t>(index)];

  std::string why;
  layer_backend* be = backend(device, &why);
  if (!be) return skipped(point, why);

  // The sensors' averaging for this point, before its idle baseline and warm-up (the sensor's
  // clock is fitted from their polls too); put back as it was when the point ends.
  const measure::sensor_averaging_scope sensors(ctx.board, spec.sensor_samples, ctx.telemetry);
  const double update_period_s = sensors.changed() && sensors.update_interval_s()
                                     ? *sensors.update_interval_s()
                                     : ctx.telemetry ? ctx.telemetry->update_period_s() : 0.0;
  measure::point_plan plan;
  plan.idle_s = spec.idle_baseline_s(update_period_s);
  plan.boundary_s = spec.boundary_s;
  plan.cooldown_s = spec.cooldown_s;
  plan.contention = spec.contention;
  plan.warmup_runs = static_cast<std::size_t>(spec.warmup_runs);
  const auto latency_samples = static_cast<std::size_t>(spec.latency_samples);
  if (spec.fixed()) {
    // The seed's protocol: a latency run, then the layer repeated over boundary + window + boundary.
    plan.fixed = measure::fixed_protocol{spec.window_s + 2 * spec.boundary_s, latency_samples};
  } else {
    // One window serves both: latency_samples runs at least, and a power window that spans enough
    // real sensor updates and whose mean has converged (RSE rule), trimmed at both ends.
    auto& stop = plan.adaptive.stop;
    stop.min_samples = latency_samples;
    stop.min_time_s = std::max(spec.min_time_s, 2 * spec.boundary_s + k_min_sensor_updates * update_period_s);
    stop.max_time_s = std::max(spec.max_time_s, stop.min_time_s);
    // Latency is a count (latency_samples runs, as the seed's users expect) unless the spec names
    // latency_target_rse; target_rse sizes the power window. (A time-RSE target by default would
    // keep noisy sub-millisecond layers running.) "converged" means every criterion named was met.
    stop.target_rse_time = spec.latency_target_rse;
    stop.target_rse_power = spec.target_rse;
  }
  plan.prepare = [&]() -> std::optional<std::string> {
    be->set_threads(static_cast<int>(spec.threads));
    try {
      be->prepare(entry.net, layer, batch, dtype);
    } catch (const layer_unsupported& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  };
  plan.run_once = [be] { return be->timed_run_s(); };
  plan.tracer = be->tracer();  // GPU kernels of a few runs after the window, on the timeline
  std::optional<measure::in_context_result> in_context;
  measure::in_context_plan ip;
  if (spec.in_context()) {
    ip.min_time_s = spec.min_time_s;
    ip.max_time_s = spec.max_time_s;
    ip.target_rel = spec.target_half_width;
    ip.boundary_s = spec.boundary_s;
    ip.poll_period_s = sensors.tick_period_s();
    if (sensors.changed()) {
      ip.sensor_period_s = update_period_s;
      ip.sensor_since_ns = sensors.since_ns();
    }
    plan.window = [&](std::optional<double> idle_w) {
      in_context = measure::in_context_protocol(ctx, *be, entry.net, layers, idle_w, ip)();
      return in_context->window;
    };
  }
  const auto m = measure::run_point(ctx, point, plan, idle_);
  if (m.skipped) return skipped(point, *m.skipped);
  if (in_context && in_context->unsupported) return skipped(point, *in_context->unsupported);
  const auto& res = m.window;
  const auto& latency = m.latency;

  measure::point_result r;
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
  mt["input_size"] = size ? json(*size) : json();
  mt["repeat"] = repeat;
  measure::put_settings(mt, m.applied);
  mt["protocol"] = spec.protocol;
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
  mt["sensor_samples"] = sensors.samples() ? json(*sensors.samples()) : json();
  const auto power_w = measure::put_power_metrics(mt, res, m.idle_w, latency.mean_s);
  mt["gflops"] = latency.mean_s > 0 ? json(static_cast<double>(layer.flops * batch) / latency.mean_s / 1e9) : json();

  measure::put_window_flags(mt, m.applied.flags, ctx, res, m.applied, power_w.has_value(), device,
                            static_cast<int>(spec.threads));
  if (in_context)
    for (auto& f : measure::in_context_flags(*in_context)) mt["flags"].push_back(std::move(f));
  // What ran each op: the kernel oneDNN chose (its impl_info_str), one entry per op.
  json kernels = json::array();
  for (const auto& [op, kernel] : be->op_kernels())
    kernels.push_back(entry.net.ops.at(static_cast<std::size_t>(op)).name + ": " + kernel);
  mt["kernels"] = kernels;
  // The whole network again, op by op: every layer's latency in context (in_context has them).
  if (index < 0 && !in_context) mt["in_context"] = measure_in_context(ctx, *be, entry.net, layers);
  if (in_context) put_layer_rows(mt, *in_context, layers, batch);

  // The end-to-end row states how the isolated layers add up against it (seed 002's check).
  const auto sum_key = variant_label(point) + "|" + name + "|" + device;
  if (index >= 0) {
    auto& acc = sums_[sum_key];
    acc.sum_s += latency.mean_s;
    ++acc.layers;
  } else if (auto it = sums_.find(sum_key); it != sums_.end() && it->second.layers == layers.size()) {
    mt["layer_latency_sum_s"] = it->second.sum_s;
    mt["layers_over_end_to_end"] = latency.mean_s > 0 ? json(it->second.sum_s / latency.mean_s) : json();
    sums_.erase(it);
  }

  r.cost = layer_run_cost(layer, point);
  r.run_s = latency.mean_s;
  r.run_cv = latency.mean_s > 0 ? latency.std_s / latency.mean_s : 0.0;

  // The seed's gap: the board settles before the next layer (fixed protocol only).
  if (spec.fixed()) measure::sleep_polling(ctx, spec.gap_s);
  return r;
}

}  // namespace

std::unique_ptr<jobs::workload> make_layers_kind() {
  return make_layers_kind([](const std::string& device, std::string* why) { return make_layer_backend(device, why); });
}

std::unique_ptr<jobs::workload> make_layers_kind(layer_backend_factory factory) {
  return jobs::make_workload(layers_kind(std::move(factory)));
}

}  // namespace jetperf::kinds
