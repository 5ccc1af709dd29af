#include <jetperf/kinds/layers/layers_kind.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/measure/modelled_truth.hpp>
#include <jetperf/kinds/common/backend_cache.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/kinds/layers/layers_columns.hpp>
#include <jetperf/kinds/layers/layers_estimate.hpp>
#include <jetperf/measure/protocols/point.hpp>
#include <jetperf/measure/point_sensor_period.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/point_latency.hpp>
#include <jetperf/kinds/common/point_power.hpp>
#include <jetperf/measure/row_bounds.hpp>
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
using namespace layers;

namespace {


// The adaptive window spans at least this many sensor updates: fewer and the mean power of a
// short layer is a handful of readings, whatever its RSE says.
constexpr double k_min_sensor_updates = 10;

std::string shapes_text(const std::vector<models::shape>& shapes, std::int64_t batch) {
  std::string s;
  for (const auto& sh : shapes) s += (s.empty() ? "" : ", ") + models::format_shape(sh, batch);
  return s;
}

measure::point_result skipped(const layers_point& p, const std::string& reason) {
  row identity;
  identity.set(cols::network, p.network);
  identity.set(cols::device, p.device);
  identity.set(cols::layer_index, p.layer_index);
  identity.set(cols::layer_name, p.layer_name);
  return measure::skipped_point(reason, std::move(identity));
}

// GFLOP/s of `flops` in `mean_s` (null without a time).
std::optional<double> gflops_of(std::int64_t flops, std::optional<double> mean_s) {
  if (!mean_s || *mean_s <= 0) return std::nullopt;
  return static_cast<double>(flops) / *mean_s / 1e9;
}

// The columns of the end-to-end row that mean nothing for one layer: null in a layer's row
// unless the layer has its own, so the row list does not show the network's there.
constexpr const char* k_network_only[] = {
    measure::cols::power_rse.name,     measure::cols::power_samples.name, measure::cols::window_energy_j.name,
    cols::window_s.name,               cols::window_runs.name,            cols::latency_rse.name,
    cols::layer_latency_sum_s.name,    cols::layers_over_end_to_end.name, cols::kernels.name,
    cols::in_context.name,             cols::functional_layer_count.name, measure::cols::power_w.name,
    measure::cols::energy_j.name,      measure::cols::dynamic_power_w.name, measure::cols::dynamic_energy_j.name,
    measure::cols::temp_max_c.name};

// A layer's own flags after the point's (a layer row shows the point's otherwise).
void merge_flags(row& item, const row& point) {
  const auto own = item.get(measure::cols::flags);
  auto both = point.get(measure::cols::flags);
  if (!own || !both) return;
  for (const auto& f : *own)
    if (std::find(both->begin(), both->end(), f) == both->end()) both->push_back(f);
  item.set(measure::cols::flags, std::move(*both));
}

// The estimator's flags after the window's.
void put_in_context_flags(row& mt, const measure::in_context_result& ic) {
  auto extra = measure::in_context_flags(ic);
  if (extra.empty()) return;
  auto flags = mt.get(measure::cols::flags).value_or(std::vector<std::string>{});
  for (auto& f : extra) flags.push_back(std::move(f));
  mt.set(measure::cols::flags, std::move(flags));
}

// One layer's row of an in_context point (or a merged group's, `first` to `last` its members):
// its own measurements, its shapes and work at the batch, and null for what only the network has.
row in_context_item(row item, const row& mt, const models::layer& first, const models::layer& last,
                    const std::vector<const models::layer*>& members, std::int64_t batch) {
  for (const char* key : k_network_only)
    if (!item.has(key)) item.put(key, nullptr);
  for (const auto& e : mt.cells())
    if (rail_of_column(e.first) != "") item.put(e.first, nullptr);
  std::int64_t params = 0, macs = 0, flops = 0, ops = 0;
  for (const auto* l : members) {
    params += l->params;
    macs += l->macs * batch;
    flops += l->flops * batch;
    ops += static_cast<std::int64_t>(l->last - l->first);
  }
  item.set(cols::input_shapes, shapes_text(first.input_shapes, batch));
  item.set(cols::output_shape, models::format_shape(last.output_shape, batch));
  item.set(cols::params, params);
  item.set(cols::macs, macs);
  item.set(cols::flops, flops);
  item.set(cols::ops, ops);
  item.set(cols::gflops, gflops_of(flops, item.get(cols::latency_mean_s)));
  merge_flags(item, mt);
  item.set(cols::layer_energy_sum_j, nullptr);
  item.set(cols::layer_energy_sum_ci95_j, nullptr);
  item.set(cols::estimator, nullptr);
  return item;
}

// The in_context point's rows: the end-to-end row first (the point's own values), then one per
// layer. A layer row names every value it has; the network's own measurements that mean nothing
// for one layer (its rails, kernels, sample counts) are null there rather than inherited.
void put_layer_rows(row& mt, const measure::in_context_result& ic, const std::vector<models::layer>& layers,
                    std::int64_t batch) {
  mt.set(cols::layer_energy_sum_j, ic.estimated ? std::optional<double>(ic.sum_energy_j) : std::nullopt);
  // The layers split the run's energy: a sum far from it is a split gone wrong (every layer row
  // shows the end-to-end row's bound).
  if (const auto run_j = mt.get(measure::cols::energy_j); ic.estimated && run_j)
    if (const auto off = measure::check_layer_energy_sum(ic.sum_energy_j, *run_j)) measure::put_implausible(mt, {*off});
  mt.set(cols::layer_energy_sum_ci95_j, ic.estimated ? std::optional<double>(ic.sum_energy_ci95_j) : std::nullopt);
  mt.set(cols::estimator, in_context_estimator_record(ic.estimator));
  cell_list rows{record()};
  for (const auto& layer : ic.layers) {
    const auto& l = layers.at(layer.index);
    rows.push_back(in_context_item(in_context_layer_row(layer), mt, l, l, {&l}, batch).cells());
  }
  // Each merged group once, after the layers, with its members' work added up.
  for (const auto& g : ic.groups) {
    std::vector<const models::layer*> members;
    for (auto i : g.members) members.push_back(&layers.at(i));
    rows.push_back(
        in_context_item(in_context_group_row(g), mt, *members.front(), *members.back(), members, batch).cells());
  }
  mt.set(cols::layer_rows, std::move(rows));
}

// A network and its layer lists, built once per job (the zoo builds in microseconds, a user
// network is re-validated from the stored spec).
struct network_entry {
  models::network net;
  std::map<std::string, std::vector<models::layer>> layers;  ///< by granularity

  const std::vector<models::layer>& layers_at(const std::string& granularity) {
    auto& at = layers[granularity];
    if (at.empty()) at = models::layers_of(net, models::parse_granularity(granularity));
    return at;
  }
  /// The point's layer: one of `layers_at` its granularity, or the whole network.
  models::layer layer_of(const layers_point& p) {
    const auto& at = layers_at(p.granularity);
    return p.end_to_end() ? models::whole_network(net) : at.at(static_cast<std::size_t>(p.layer_index));
  }
};

// The dry run's answers: a device with no backend, and the layers whose ops its backend cannot
// run in the point's dtype (half on a CPU without it), each asked once per network, size, layer
// and dtype however many settings and repeats share it.
class dry_run_answers {
 public:
  dry_run_answers(const layers_spec& spec, const layer_backend_factory& make_backend)
      : spec_(spec), make_backend_(make_backend) {}

  /// Why the point would be skipped; nullopt when it would run.
  std::optional<std::string> skip_reason(const layers_point& p) {
    auto& be = backend(p.device);
    if (!be.first) return be.second;
    const auto key = p.device + "/" + p.network + "/" + std::to_string(p.input_size.value_or(0)) + "/" + p.granularity +
                     "/" + std::to_string(p.layer_index) + "/" + p.dtype;
    auto answer = answers_.find(key);
    if (answer == answers_.end()) {
      auto& entry = networks_.try_emplace(std::make_pair(p.network, p.input_size.value_or(0)),
                                          network_entry{network_of_spec(spec_.networks, p.network, p.input_size), {}})
                        .first->second;
      answer = answers_.emplace(key, be.first->supports(entry.net, entry.layer_of(p), *parse_gemm_dtype(p.dtype))).first;
    }
    return answer->second;
  }

 private:
  // The device's backend, made once; without one, why.
  std::pair<std::unique_ptr<layer_backend>, std::string>& backend(const std::string& device) {
    auto& be = backends_[device];
    if (!be.first && be.second.empty()) {
      be.first = make_backend_(device, &be.second);
      if (!be.first && be.second.empty()) be.second = "no backend for device " + device;
    }
    return be;
  }

  const layers_spec& spec_;
  const layer_backend_factory& make_backend_;
  std::map<std::string, std::pair<std::unique_ptr<layer_backend>, std::string>> backends_;
  std::map<std::pair<std::string, std::int64_t>, network_entry> networks_;
  std::map<std::string, std::optional<std::string>> answers_;
};

// The sensors' update period the point's windows are sized by: the averaging it set, else what
// the driver states, the board's card or the polls' changes say (period_s 0: unknown).
measure::sensor_facts sensor_period(const measure::sensor_averaging_scope& sensors, const measure::point_context& ctx) {
  return measure::point_sensor_period(ctx, sensors.changed() ? sensors.update_interval_s() : std::nullopt);
}

// The protocol's part of a point's plan: idle baseline, boundaries, cool-down, contention, warm-up
// and the window (fixed, or adaptive with its stop rule).
measure::point_plan protocol_plan(const layers_spec& spec, double update_period_s) {
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
    return plan;
  }
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
  return plan;
}

// The work itself: the backend prepared with the layer, one timed run at a time.
void bind_layer(measure::point_plan& plan, layer_backend& be, const layers_spec& spec, const models::network& net,
                const models::layer& layer, std::int64_t batch, gemm_dtype dtype) {
  plan.prepare = [&be, &spec, &net, &layer, batch, dtype]() -> std::optional<std::string> {
    be.set_threads(static_cast<int>(spec.threads));
    try {
      be.prepare(net, layer, batch, dtype);
    } catch (const layer_unsupported& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  };
  plan.run_once = [&be] { return be.timed_run_s(); };
  plan.tracer = be.tracer();  // GPU kernels of a few runs after the window, on the timeline
}

// in_context's own window: the whole network's runs until every layer's energy converges.
measure::in_context_plan in_context_plan_of(const layers_spec& spec, const measure::sensor_averaging_scope& sensors,
                                            double update_period_s) {
  measure::in_context_plan ip;
  ip.min_time_s = spec.min_time_s;
  ip.max_time_s = spec.max_time_s;
  ip.target_rel = spec.target_half_width;
  ip.boundary_s = spec.boundary_s;
  ip.poll_period_s = sensors.tick_period_s();
  if (sensors.changed()) {
    ip.sensor_period_s = update_period_s;
    ip.sensor_since_ns = sensors.since_ns();
  }
  return ip;
}

// What ran: the point's network, layer (its shapes and work at the batch), variant and setting.
void put_layer_identity(row& mt, const layers_point& p, const std::string& backend, const models::network& net,
                        const models::layer& layer, gemm_dtype dtype, const measure::applied_settings& applied) {
  mt.set(cols::network, p.network);
  mt.set(cols::device, p.device);
  mt.set(cols::backend, backend);
  mt.set(cols::granularity, p.granularity);
  mt.set(cols::layer_index, p.layer_index);
  mt.set(cols::layer_name, layer.name);
  mt.set(cols::layer_type, layer.type);
  mt.set(cols::input_shapes, shapes_text(layer.input_shapes, p.batch));
  mt.set(cols::output_shape, models::format_shape(layer.output_shape, p.batch));
  mt.set(cols::params, layer.params);
  mt.set(cols::macs, layer.macs * p.batch);
  mt.set(cols::flops, layer.flops * p.batch);
  if (p.end_to_end()) {
    mt.set(cols::functional_layer_count, net.functional_layer_count());
    mt.set(cols::ops, net.ops.size());
  } else {
    mt.set(cols::ops, layer.last - layer.first);
  }
  mt.set(cols::batch, p.batch);
  mt.set(cols::dtype, to_string(dtype));
  mt.set(cols::input_size, p.input_size);
  mt.set(cols::repeat, p.repeat);
  measure::put_settings(mt, applied);
}

// The window: its latency, length and runs, and the sensors' averaging it ran under.
void put_window(row& mt, const layers_spec& spec, const measure::point_measurement& m,
                const measure::sensor_facts& period, const measure::sensor_averaging_scope& sensors) {
  mt.set(cols::protocol, spec.protocol);
  common::put_latency(mt,
                       {cols::latency_count, cols::latency_mean_s, cols::latency_median_s, cols::latency_min_s,
                        cols::latency_max_s, cols::latency_std_s, cols::latency_rse},
                       m.latency);
  mt.set(cols::window_s, static_cast<double>(m.window.t_end_ns - m.window.t_start_ns) * 1e-9);
  mt.set(cols::window_runs, m.window.latency.count);
  mt.set(cols::sensor_update_period_s, period.period_s > 0 ? std::optional<double>(period.period_s) : std::nullopt);
  mt.set(cols::sensor_period_source,
         period.period_source.empty() ? std::nullopt : std::optional<std::string>(period.period_source));
  mt.set(cols::sensor_samples, sensors.samples());
}

// What ran each op: the kernel oneDNN chose (its impl_info_str), one entry per op.
std::vector<std::string> kernels_of(layer_backend& be, const models::network& net) {
  std::vector<std::string> kernels;
  for (const auto& [op, kernel] : be.op_kernels()) kernels.push_back(net.ops.at(static_cast<std::size_t>(op)).name + ": " + kernel);
  return kernels;
}

class layers_kind final : public jobs::kind<layers_spec, layers_point> {
 public:
  explicit layers_kind(layer_backend_factory factory) : make_backend_(factory), backends_(std::move(factory)) {}

  std::string kind() const { return "layers"; }
  std::string description() const {
    return "Every layer of a network run in isolation on its real input shape (latency, power, energy), then "
           "the network end to end.";
  }
  const std::vector<spec_field>& spec_fields() const { return layers_spec_fields(); }
  const column_table& columns() const { return layers_columns(); }
  const std::vector<summary_table>& summary_tables() const { return layers_summary_tables(); }
  // The spec's stored form (parse, stored, to_record, upgrade) is layers_spec's own.
  std::int64_t spec_version() const { return k_layers_spec_version; }
  std::vector<layers_point> expand(const layers_spec& spec) const { return kinds::expand(spec); }
  record params_of(const layers_point& p) const { return p.to_record(); }
  layers_point point_of(const record& p) const { return layers_point::of(p); }
  std::vector<double> estimate_points_s(const layers_spec& spec, const std::vector<layers_point>& points,
                                        const measure::estimate_context& ctx) const {
    return estimate_layers_points_s(spec, points, ctx);
  }
  measure::point_result run_point(measure::point_context& ctx, const layers_spec& spec, const layers_point& p);

  cell summarize(const std::vector<jobs::point_row>& rows) const { return summarize_layers(rows); }
  // What the dry run says will be skipped (dry_run_answers), counted by reason.
  std::map<std::string, std::size_t> foreseen_skips(const layers_spec& spec, const std::vector<layers_point>& points) const {
    std::map<std::string, std::size_t> out;
    dry_run_answers answers(spec, make_backend_);
    for (const auto& p : points)
      if (const auto reason = answers.skip_reason(p)) ++out[*reason];
    return out;
  }

  std::vector<std::string> export_formats() const { return {"dnnstats"}; }
  // The seed's loops take every top-level key for a network: provenance travels beside the file.
  bool export_has_provenance(const std::string& format) const { return format != "dnnstats"; }
  cell export_results(const std::string&, const std::vector<jobs::point_row>& rows) const {
    return layers_dnnstats(rows);
  }

 private:
  network_entry& network(const layers_spec& spec, const layers_point& p, std::int64_t job) {
    // Everything cached here belongs to one job: a new job starts clean (a cancelled or
    // failed one leaves nothing behind).
    if (job_ != job) {
      networks_.clear();
      sums_.clear();
      job_ = job;
    }
    const auto key = std::make_pair(p.network, p.input_size.value_or(0));
    auto it = networks_.find(key);
    if (it == networks_.end())
      it = networks_.emplace(key, network_entry{network_of_spec(spec.networks, p.network, p.input_size), {}}).first;
    return it->second;
  }

  layer_backend* backend(const std::string& device, std::string* why) { return backends_.get(device, why); }

  // The end-to-end row states how the isolated layers add up against it (seed 002's check): each
  // layer row's latency joins its network's sum, which the end-to-end row takes when every layer
  // of `layers_count` is in it.
  void put_layer_sum(row& mt, const layers_point& p, double latency_mean_s, std::size_t layers_count) {
    const auto sum_key = variant_label(p) + "|" + p.network + "|" + p.device;
    if (!p.end_to_end()) {
      auto& acc = sums_[sum_key];
      acc.sum_s += latency_mean_s;
      ++acc.layers;
    } else if (auto it = sums_.find(sum_key); it != sums_.end() && it->second.layers == layers_count) {
      mt.set(cols::layer_latency_sum_s, it->second.sum_s);
      mt.set(cols::layers_over_end_to_end,
             latency_mean_s > 0 ? std::optional<double>(it->second.sum_s / latency_mean_s) : std::nullopt);
      sums_.erase(it);
    }
  }

  layer_backend_factory make_backend_;  ///< for the dry run's own backends (the cache is the runner's)
  common::backend_cache<layer_backend> backends_;
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

measure::point_result layers_kind::run_point(measure::point_context& ctx, const layers_spec& spec, const layers_point& p) {
  const auto dtype = *parse_gemm_dtype(p.dtype);
  auto& entry = network(spec, p, ctx.job_id);
  const auto& layers = entry.layers_at(p.granularity);
  if (p.layer_index >= static_cast<int>(layers.size())) throw std::invalid_argument("layer index out of range");
  const models::layer layer = entry.layer_of(p);

  std::string why;
  layer_backend* be = backend(p.device, &why);
  if (!be) return skipped(p, why);

  // The sensors' averaging for this point, before its idle baseline and warm-up (the sensor's
  // clock is fitted from their polls too); put back as it was when the point ends.
  const measure::sensor_averaging_scope sensors(ctx.board, spec.sensor_samples, ctx.telemetry);
  const auto period = sensor_period(sensors, ctx);
  const double update_period_s = period.period_s;
  auto plan = protocol_plan(spec, update_period_s);
  bind_layer(plan, *be, spec, entry.net, layer, p.batch, dtype);
  std::optional<measure::in_context_result> in_context;
  if (spec.in_context())
    plan.window = [&, ip = in_context_plan_of(spec, sensors, update_period_s)](std::optional<double> idle_w) {
      in_context = measure::measure_in_context(ctx, *be, entry.net, layers, idle_w, ip);
      return in_context->window;
    };
  const auto m = measure::run_point(ctx, p.setting, plan, idle_);
  if (m.skipped) return skipped(p, *m.skipped);
  if (in_context && in_context->unsupported) return skipped(p, *in_context->unsupported);

  measure::point_result r;
  r.t_start_ns = m.window.t_start_ns;
  r.t_end_ns = m.window.t_end_ns;
  auto& mt = r.metrics;
  put_layer_identity(mt, p, be->name(), entry.net, layer, dtype, m.applied);
  // In context, the period the readings were placed with is the runs' own fit.
  put_window(mt, spec, m, in_context && in_context->estimator.facts.period_s > 0 ? in_context->estimator.facts : period,
             sensors);
  const auto power_w = common::put_power_metrics(mt, m.window, m.idle_w, m.latency.mean_s);
  mt.set(cols::gflops, gflops_of(layer.flops * p.batch, m.latency.mean_s));
  measure::put_window_flags(mt, m.applied.flags, ctx, m.window, m.applied, power_w.has_value(), p.device,
                            static_cast<int>(spec.threads));
  if (in_context) put_in_context_flags(mt, *in_context);
  // The simulator's own figure over the same work (simulated boards): the runs' for in_context.
  if (in_context) {
    if (in_context->runs_sim) measure::put_modelled(mt, in_context->runs_sim);
  } else {
    measure::put_modelled(mt, ctx, m.window.t_start_ns, m.window.t_end_ns);
  }
  mt.set(cols::kernels, kernels_of(*be, entry.net));
  // The whole network again, op by op: every layer's latency in context (in_context has them).
  if (p.end_to_end() && !in_context) mt.set(cols::in_context, measure_in_context(ctx, *be, entry.net, layers));
  if (in_context) put_layer_rows(mt, *in_context, layers, p.batch);
  put_layer_sum(mt, p, m.latency.mean_s, layers.size());

  r.cost = layer_run_cost(layer, p);
  r.run_s = m.latency.mean_s;
  r.run_cv = m.latency.mean_s > 0 ? m.latency.std_s / m.latency.mean_s : 0.0;
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
