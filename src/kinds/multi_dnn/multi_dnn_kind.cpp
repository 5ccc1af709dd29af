#include <jetperf/kinds/multi_dnn/multi_dnn_kind.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <jetperf/jobs/kind.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_columns.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_estimate.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_results.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_spec.hpp>
#include <jetperf/kinds/multi_dnn/network_pipeline.hpp>
#include <jetperf/kinds/multi_dnn/tegrastats_aggregates.hpp>
#include <jetperf/measure/modelled_truth.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/point_power.hpp>
#include <jetperf/measure/protocols/concurrent.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/platform/meminfo.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/workloads/layer_backends.hpp>

namespace jetperf::kinds {

namespace {

namespace cols = multi_dnn::cols;

// The mapping's identity columns, from the point as stored.
row identity_of(const record& point) {
  row id;
  for (const char* key : {"mapping_id", "mapping_class", "mapping", "networks", "set", "repeat"}) {
    const auto* v = point.find(key);
    id.put(key, v ? *v : cell());
  }
  return id;
}

// Median and 99th percentile of kept timings (nearest rank).
std::pair<double, double> median_p99(std::vector<float> v) {
  if (v.empty()) return {0.0, 0.0};
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) {
    const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) ;
    return static_cast<double>(v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)]);
  };
  return {at(0.5), at(0.99)};
}

class multi_dnn_kind final : public jobs::kind<multi_dnn_spec, multi_dnn_point> {
 public:
  explicit multi_dnn_kind(stage_backend_factory factory) : factory_(std::move(factory)) {}

  std::string kind() const { return "multi_dnn"; }
  std::string description() const {
    return "Several zoo networks at once, each split at block boundaries into stages on the CPU or the GPU "
           "(the multi-DNN mappings of the DNN stats dataset generator): throughput, stage and transfer times, power, tegrastats aggregates.";
  }
  const std::vector<spec_field>& spec_fields() const { return multi_dnn_spec_fields(); }
  const column_table& columns() const { return multi_dnn_columns(); }

  // The spec's stored form (parse, stored, to_record) is multi_dnn_spec's own.
  std::vector<multi_dnn_point> expand(const multi_dnn_spec& spec) const { return kinds::expand(spec); }
  record params_of(const multi_dnn_point& p) const { return p.to_record(); }
  multi_dnn_point point_of(const record& p) const { return multi_dnn_point::of(p); }

  std::map<std::string, std::size_t> foreseen_skips(const multi_dnn_spec&, const std::vector<multi_dnn_point>& points) const {
    std::map<std::string, std::size_t> out;
    if (workloads::cuda_device_available()) return out;
    for (const auto& p : points)
      for (const auto& n : p.mapping.m.networks)
        if (std::any_of(n.stages.begin(), n.stages.end(), [](const auto& st) { return st.device == "cuda"; })) {
          ++out["no CUDA device: mappings with GPU stages"];
          break;
        }
    return out;
  }
  std::vector<double> estimate_points_s(const multi_dnn_spec& s, const std::vector<multi_dnn_point>& points,
                                        const measure::estimate_context& ctx) const {
    return estimate_multi_dnn_points_s(s, points, ctx);
  }
  measure::point_result run_point(measure::point_context& ctx, const multi_dnn_spec& spec, const multi_dnn_point& p);
  cell summarize(const std::vector<jobs::point_row>& rows) const {
    return summarize_multi_dnn(rows);
  }
  std::vector<std::string> export_formats() const { return {"multinet"}; }
  cell export_results(const std::string&, const std::vector<jobs::point_row>& rows) const {
    return multinet_export(rows);
  }

 private:
  const models::network& network(const std::string& name, std::int64_t job) {
    if (job != job_) {
      networks_.clear();
      unusable_.clear();
      job_ = job;
    }
    auto it = networks_.find(name);
    if (it == networks_.end()) it = networks_.emplace(name, models::build_model(name)).first;
    return it->second;
  }

  /// Every network's stages prepared into `pipelines`; why the mapping is skipped, or nullopt.
  std::optional<std::string> prepare_pipelines(measure::point_context& ctx, const multi_dnn_spec& spec,
                                               const mapping& m, std::vector<network_pipeline>& pipelines);
  cell_list stage_rows(std::int64_t job, const multi_dnn_spec& spec, const mapping& m,
                  const std::vector<network_pipeline>& pipelines, const measure::concurrent_result& w,
                  int& cpu_networks);

  stage_backend_factory factory_;
  std::map<std::string, models::network> networks_;
  std::map<std::string, std::string> unusable_;  ///< device -> why it has no backend (asked once per job)
  std::int64_t job_ = -1;
  measure::idle_power_cache idle_;
};

// The window's plan: at least k_multi_dnn_min_sensor_updates sensor updates inside its trimmed span.
measure::concurrent_plan plan_of(const multi_dnn_spec& spec, double update_s) {
  measure::concurrent_plan plan;
  plan.warmup_runs = static_cast<std::size_t>(spec.warmup_runs);
  if (spec.fixed()) plan.fixed_s = spec.window_s;
  plan.min_time_s = std::max(spec.min_time_s, 2 * spec.boundary_s + k_multi_dnn_min_sensor_updates * update_s);
  plan.max_time_s = std::max(spec.max_time_s, plan.min_time_s);
  plan.target_rse = spec.target_rse;
  plan.boundary_s = spec.boundary_s;
  plan.threads = static_cast<int>(spec.threads);
  plan.pin = spec.pin;
  plan.contention = spec.contention;
  return plan;
}

// The mapping's own figures: throughput over every network's inferences, and what it ran with.
// Returns the inferences in the window.
std::size_t put_mapping_metrics(row& mt, const multi_dnn_spec& spec, const measure::concurrent_result& w,
                                double update_s) {
  const double window_s = w.seconds();
  std::size_t inferences = 0, warmup = 0;
  for (const auto& n : w.pipelines) inferences += n.inferences, warmup += n.warmup;
  mt.set(cols::throughput_ips, window_s > 0 ? static_cast<double>(inferences) / window_s : 0.0);
  mt.set(cols::inferences, inferences);
  mt.set(cols::warmup_inferences, warmup);
  mt.set(cols::window_s, window_s);
  mt.set(cols::sensor_update_period_s, update_s);
  mt.set(cols::batch, spec.batch);
  mt.set(cols::dtype, spec.dtype);
  mt.set(cols::threads, spec.threads);
  mt.set(cols::protocol, spec.protocol);
  return inferences;
}

std::optional<std::string> multi_dnn_kind::prepare_pipelines(measure::point_context& ctx, const multi_dnn_spec& spec,
                                                             const mapping& m, std::vector<network_pipeline>& pipelines) {
  // Every network's stages, prepared before any runs: a device without a backend or a layer it
  // cannot run skips the whole mapping (running the rest would measure another workload).
  const auto backends = [this](const std::string& device, std::string* why) -> std::unique_ptr<workloads::layer_backend> {
    if (const auto it = unusable_.find(device); it != unusable_.end()) {
      *why = it->second;
      return nullptr;
    }
    auto be = factory_(device, why);
    if (!be) unusable_[device] = *why;
    return be;
  };
  const auto dtype = *workloads::parse_gemm_dtype(spec.dtype);
  pipelines = std::vector<network_pipeline>(m.networks.size());
  for (std::size_t i = 0; i < m.networks.size(); ++i) {
    const auto& n = m.networks[i];
    if (auto why = pipelines[i].prepare(network(n.network, ctx.job_id), n, spec.batch, dtype, backends)) return why;
  }
  return std::nullopt;
}

// One row per network stage; `cpu_networks` counts the networks with a stage on the CPU.
cell_list multi_dnn_kind::stage_rows(std::int64_t job, const multi_dnn_spec& spec, const mapping& m,
                                const std::vector<network_pipeline>& pipelines, const measure::concurrent_result& w,
                                int& cpu_networks) {
  const double window_s = w.seconds();
  cell_list stages;
  for (std::size_t i = 0; i < m.networks.size(); ++i) {
    const auto& n = m.networks[i];
    const auto& nw = w.pipelines[i];
    const auto& net = network(n.network, job);
    bool network_on_cpu = false;
    for (std::size_t k = 0; k < pipelines[i].stages().size(); ++k) {
      const auto& st = pipelines[i].stages()[k];
      const auto& sw = nw.stages[k];
      network_on_cpu = network_on_cpu || st.device == "cpu";
      const auto [median, p99] = median_p99(sw.inference_s);
      const auto transfer = sw.mean_transfer_s();
      row stage;
      stage.set(cols::network, n.network);
      stage.set(cols::stage_index, k);
      stage.set(cols::device, st.device);
      stage.set(cols::split, n.stages[k].split);
      stage.set(cols::layer_range, std::to_string(st.first_block) + "-" + std::to_string(st.last_block - 1));
      stage.set(cols::backend, st.backend->name());
      stage.set(cols::inference_count, sw.count);
      stage.set(cols::inference_mean_s, sw.mean_inference_s());
      stage.set(cols::inference_median_s, median);
      stage.set(cols::inference_p99_s, p99);
      stage.set(cols::transfer_mean_s, transfer);
      stage.set(cols::network_inferences, nw.inferences);
      stage.set(cols::network_throughput_ips, window_s > 0 ? static_cast<double>(nw.inferences) / window_s : 0.0);
      stage.set(cols::network_throughput_rse,
                std::isfinite(nw.throughput_rse) ? std::optional<double>(nw.throughput_rse) : std::nullopt);
      stage.set(cols::params, st.layer.params);
      stage.set(cols::macs, st.layer.macs * spec.batch);
      stage.set(cols::flops, st.layer.flops * spec.batch);
      stage.set(cols::functional_layer_count, models::functional_layer_count(net, st.layer.first, st.layer.last));
      stages.push_back(std::move(stage.cells()));
    }
    cpu_networks += network_on_cpu ? 1 : 0;
  }
  return stages;
}

measure::point_result multi_dnn_kind::run_point(measure::point_context& ctx, const multi_dnn_spec& spec,
                                                const multi_dnn_point& p) {
  const auto point = p.to_record();  // the row's identity, in the stored form
  const auto& m = p.mapping.m;
  for (const auto& n : m.networks) network(n.network, ctx.job_id);

  const auto applied = measure::apply_point_settings(ctx, p.setting);
  const double update_s = ctx.telemetry ? ctx.telemetry->update_period_s() : 0.0;
  const auto idle_w = idle_.get(ctx, applied.requested, std::max(0.5, spec.min_time_s), spec.boundary_s);
  if (ctx.cancelled() || !measure::sleep_polling(ctx, spec.cooldown_s))
    return measure::skipped_point("cancelled", identity_of(point));
  std::vector<network_pipeline> pipelines;
  if (auto why = prepare_pipelines(ctx, spec, m, pipelines)) return measure::skipped_point(*why, identity_of(point));

  std::vector<measure::concurrent_pipeline*> running;
  for (auto& pl : pipelines) running.push_back(&pl);
  const auto w = measure::concurrent_protocol(ctx, running, plan_of(spec, update_s))();
  const auto& window = w.window;
  if (window.cancelled || ctx.cancelled()) return measure::skipped_point("cancelled", identity_of(point));
  if (!w.error.empty()) throw std::runtime_error(w.error);
  ctx.record("warmup", "warm-up", w.t_warmup_ns, window.t_start_ns);
  ctx.record("window", "mapping " + std::to_string(p.mapping_id), window.t_start_ns, window.t_end_ns,
             record{{"mapping", point.at("mapping")}});

  measure::point_result r;
  r.t_start_ns = window.t_start_ns;
  r.t_end_ns = window.t_end_ns;
  row& mt = r.metrics;
  mt = identity_of(point);
  const auto inferences = put_mapping_metrics(mt, spec, w, update_s);
  measure::put_settings(mt, applied);
  // The seed's rows always say the mode they ran in: one the point left as it was is read.
  const auto* mode_set = mt.find("power_mode");
  if ((!mode_set || mode_set->is_null()) && ctx.board)
    if (const auto mode = ctx.board->offered().power_mode) mt.put("power_mode", *mode);

  // The power columns through the one writer every kind uses; one "run" is one inference of any
  // network, so energy_j is the mapping's energy per inference.
  const double per_inference_s = inferences ? w.seconds() / static_cast<double>(inferences) : 0.0;
  const auto power_w = common::put_power_metrics(mt, window, idle_w, per_inference_s);
  measure::put_modelled(mt, ctx, window.t_start_ns, window.t_end_ns);
  mt.set(cols::tegrastats,
         window.power ? tegrastats_aggregates(*window.power, memory_use_of(platform::host_memory_info())) : record());
  int cpu_networks = 0;
  mt.set(cols::stages, stage_rows(ctx.job_id, spec, m, pipelines, w, cpu_networks));
  measure::put_window_flags(mt, applied.flags, ctx, window, applied, power_w.has_value(),
                            cpu_networks > 0 ? "cpu" : "cuda", cpu_networks * static_cast<int>(spec.threads));
  r.run_s = per_inference_s;
  return r;
}

}  // namespace

std::unique_ptr<jobs::workload> make_multi_dnn_kind() {
  return make_multi_dnn_kind(
      [](const std::string& device, std::string* why) { return workloads::make_layer_backend(device, why); });
}

std::unique_ptr<jobs::workload> make_multi_dnn_kind(stage_backend_factory factory) {
  return jobs::make_workload(multi_dnn_kind(std::move(factory)));
}

}  // namespace jetperf::kinds
