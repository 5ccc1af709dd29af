#include <jetperf/kinds/layers/layers_estimate.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/measure/point_estimate.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

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

std::optional<std::int64_t> size_of_point(const json& point) {
  const auto it = point.find("input_size");
  if (it == point.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

}  // namespace

measure::run_cost layer_run_cost(const models::layer& l, const json& point) {
  const auto device = point.value("device", std::string("cpu"));
  const auto dtype = point.value("dtype", std::string("float"));
  const auto batch = point.value("batch", std::int64_t{1});
  measure::run_cost c;
  c.cls = device + "/" + dtype + "/" + l.type;
  // Layers without arithmetic (pooling, activations, copies) still move their data: one unit of
  // work per output element keeps their runs apart by size.
  c.work = static_cast<double>(std::max<std::int64_t>(l.flops, models::elements(l.output_shape)) * batch);
  c.clock_hz = measure::device_clock_hz(point, device);
  const double clock = c.clock_hz.value_or(device == "cuda" ? 1e9 : 1.5e9);
  c.prior_s = nominal_overhead_s(device) * static_cast<double>(std::max(1, l.last - l.first)) +
              c.work / (nominal_flops_per_cycle(device, dtype) * clock);
  return c;
}

std::vector<double> estimate_layers_points_s(const json& spec_json, const std::vector<json>& points,
                                             const measure::estimate_context& ctx) {
  const auto spec = layers_spec::stored(spec_json);
  const auto g = models::parse_granularity(spec.granularity);
  const user_networks users(spec_json);
  // Each network and its layers, built once per size.
  std::map<std::pair<std::string, std::int64_t>, std::pair<models::network, std::vector<models::layer>>> nets;
  const auto layer_of = [&](const json& p) -> const models::layer* {
    const auto name = p.at("network").get<std::string>();
    const auto size = size_of_point(p);
    auto key = std::make_pair(name, size.value_or(0));
    auto it = nets.find(key);
    if (it == nets.end()) {
      auto net = network_of_spec(users, name, size);
      auto layers = models::layers_of(net, g);
      layers.push_back(models::whole_network(net));
      it = nets.emplace(key, std::make_pair(std::move(net), std::move(layers))).first;
    }
    const auto index = p.at("layer_index").get<int>();
    const auto& layers = it->second.second;
    return index < 0 ? &layers.back() : index < static_cast<int>(layers.size()) ? &layers[static_cast<std::size_t>(index)] : nullptr;
  };

  measure::idle_baseline_estimate idle(spec.idle_baseline_s() + 2 * spec.boundary_s);
  const double min_window = std::max(spec.min_time_s, 2 * spec.boundary_s + k_min_sensor_updates * ctx.sensor_update_s);
  const auto runs = static_cast<std::size_t>(spec.latency_samples);
  std::vector<double> out;
  out.reserve(points.size());
  for (const auto& p : points) {
    const auto* l = layer_of(p);
    double t = idle.add(p) + spec.cooldown_s;
    if (l) {
      const auto c = layer_run_cost(*l, p);
      const measure::run_time run = ctx.run ? ctx.run(c) : measure::run_time{c.prior_s, 0};
      // Weights and the input data, filled before the first run.
      const double filled = static_cast<double>(l->params) +
                            static_cast<double>(models::elements(l->output_shape) * p.value("batch", std::int64_t{1}));
      t += k_prepare_s + filled * k_fill_s_per_element + static_cast<double>(spec.warmup_runs) * run.mean_s;
      // in_context runs until every layer's interval converges, which no prior predicts: its
      // bound is what the job can take.
      if (spec.in_context())
        t += spec.max_time_s;
      else if (spec.fixed())
        t += static_cast<double>(runs) * run.mean_s + spec.window_s + 2 * spec.boundary_s + spec.gap_s;
      else
        t += measure::adaptive_window_s(min_window, std::max(spec.max_time_s, min_window), runs, run,
                                        spec.latency_target_rse);
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace jetperf::kinds
