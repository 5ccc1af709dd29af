#include <jetperf/kinds/layers/layers_estimate.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <jetperf/measure/point_board.hpp>
#include <jetperf/kinds/common/point_estimate.hpp>

namespace jetperf::kinds {

namespace {

// The adaptive window spans at least this many sensor updates (layers_kind.cpp).
constexpr double k_min_sensor_updates = 10;

// Nominal rates for a board with no history: FLOPs per clock cycle, the clock assumed when the
// point leaves it as it is, and the fixed cost of one run (a library call, kernel launches).
double nominal_flops_per_cycle(const std::string& device, const std::string& dtype) {
  if (device == "cuda") return dtype == "half" ? 512 : 256;
  return 12;
}
double nominal_overhead_s(const std::string& device) { return device == "cuda" ? 50e-6 : 20e-6; }
// Preparing a layer: the library's plan, weights and inputs filled with deterministic data.
constexpr double k_prepare_s = 2e-3;
constexpr double k_fill_s_per_element = 2e-9;

// Each network's layers at the spec's granularity and the whole network last, built once per
// network and input size: a point's layer by its index.
class layer_lookup {
 public:
  explicit layer_lookup(const layers_spec& spec) : spec_(spec), g_(models::parse_granularity(spec.granularity)) {}

  /// nullptr when the index is past the network's layers.
  const models::layer* find(const layers_point& p) {
    const auto key = std::make_pair(p.network, p.input_size.value_or(0));
    auto it = layers_.find(key);
    if (it == layers_.end()) {
      const auto net = network_of_spec(spec_.networks, p.network, p.input_size);
      auto layers = models::layers_of(net, g_);
      layers.push_back(models::whole_network(net));
      it = layers_.emplace(key, std::move(layers)).first;
    }
    const auto& layers = it->second;
    if (p.end_to_end()) return &layers.back();
    return p.layer_index < static_cast<int>(layers.size()) ? &layers[static_cast<std::size_t>(p.layer_index)] : nullptr;
  }

 private:
  const layers_spec& spec_;
  models::granularity g_;
  std::map<std::pair<std::string, std::int64_t>, std::vector<models::layer>> layers_;
};

// `t`, a point's idle baseline and cool-down, with its layer added: preparing it, the warm-up
// and the protocol's window (added in this order, as the estimates were always summed).
double plus_layer_s(double t, const layers_spec& spec, const layers_point& p, const models::layer& l,
                    const measure::estimate_context& ctx) {
  const auto c = layer_run_cost(l, p);
  const measure::run_time run = ctx.run ? ctx.run(c) : measure::run_time{c.prior_s, 0};
  const auto runs = static_cast<std::size_t>(spec.latency_samples);
  // Weights and the input data, filled before the first run.
  const double filled = static_cast<double>(l.params) + static_cast<double>(models::elements(l.output_shape) * p.batch);
  t += k_prepare_s + filled * k_fill_s_per_element + static_cast<double>(spec.warmup_runs) * run.mean_s;
  // in_context runs until every layer's interval converges, which no prior predicts: its
  // bound is what the job can take.
  if (spec.in_context()) return t + spec.max_time_s;
  // A contended window is measured again (the fixed protocol's latency runs are not).
  if (spec.fixed())
    return t + (static_cast<double>(runs) * run.mean_s + spec.window_s + 2 * spec.boundary_s + spec.gap_s +
                (ctx.window_repeats - 1) * (spec.window_s + 2 * spec.boundary_s));
  const double min_window = std::max(spec.min_time_s, 2 * spec.boundary_s + k_min_sensor_updates * ctx.sensor_update_s);
  return t + ctx.window_repeats * common::adaptive_window_s(min_window, std::max(spec.max_time_s, min_window), runs,
                                                             run, spec.latency_target_rse);
}

}  // namespace

measure::run_cost layer_run_cost(const models::layer& l, const layers_point& point) {
  measure::run_cost c;
  c.cls = point.device + "/" + point.dtype + "/" + l.type;
  // Layers without arithmetic (pooling, activations, copies) still move their data: one unit of
  // work per output element keeps their runs apart by size.
  c.work = static_cast<double>(std::max<std::int64_t>(l.flops, models::elements(l.output_shape)) * point.batch);
  c.clock_hz = common::device_clock_hz(point.setting, point.device);
  const double clock = c.clock_hz.value_or(point.device == "cuda" ? 1e9 : 1.5e9);
  c.prior_s = nominal_overhead_s(point.device) * static_cast<double>(std::max(1, l.last - l.first)) +
              c.work / (nominal_flops_per_cycle(point.device, point.dtype) * clock);
  return c;
}

std::vector<double> estimate_layers_points_s(const layers_spec& spec, const std::vector<layers_point>& points,
                                             const measure::estimate_context& ctx) {
  layer_lookup layers(spec);
  common::idle_baseline_estimate idle(spec.idle_baseline_s() + 2 * spec.boundary_s);
  std::vector<double> out;
  out.reserve(points.size());
  for (const auto& p : points) {
    double t = idle.add(p.setting) + spec.cooldown_s;
    if (const auto* l = layers.find(p)) t = plus_layer_s(t, spec, p, *l, ctx);
    out.push_back(t);
  }
  return out;
}

}  // namespace jetperf::kinds
