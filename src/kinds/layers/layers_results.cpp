#include <jetperf/kinds/layers/layers_results.hpp>

#include <map>
#include <string>
#include <tuple>

#include <jetperf/jobs/columns.hpp>
#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/sweep_axes.hpp>

namespace jetperf::kinds {

using measure::board_setting_keys;

namespace {

using nlohmann::json;

bool ok(const json& row) { return row.value("status", std::string()) == "ok"; }

double number_or(const json& j, const char* key, double fallback) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

}  // namespace

std::string setting_label(const nlohmann::json& params) { return measure::setting_of_point(params).label(); }

nlohmann::json summarize_layers(const std::vector<nlohmann::json>& rows) {
  struct group {
    json first_params;
    std::size_t layers = 0, measured = 0;
    double latency_sum = 0, energy_sum = 0;
    bool energy_known = true;
    const json* e2e = nullptr;
  };
  // Keyed and ordered by first appearance (the job's own order).
  std::vector<std::tuple<std::string, std::string, std::string>> order;
  std::map<std::tuple<std::string, std::string, std::string>, group> groups;
  for (const auto& row : rows) {
    const auto& p = row.at("params");
    const auto key = std::make_tuple(setting_label(p), p.value("network", std::string()), p.value("device", std::string()));
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) {
      order.push_back(key);
      it->second.first_params = p;
    }
    auto& g = it->second;
    if (p.value("layer_index", 0) < 0) {
      if (ok(row)) g.e2e = &row;
      continue;
    }
    ++g.layers;
    if (!ok(row)) continue;
    const auto& m = row.at("metrics");
    ++g.measured;
    g.latency_sum += number_or(m, "latency_mean_s", 0);
    if (m.contains("energy_j") && m["energy_j"].is_number())
      g.energy_sum += m["energy_j"].get<double>();
    else
      g.energy_known = false;
  }
  json nets = json::array();
  for (const auto& key : order) {
    const auto& g = groups.at(key);
    json n = {{"network", std::get<1>(key)},
              {"device", std::get<2>(key)},
              {"setting", std::get<0>(key)},
              {"granularity", g.first_params.value("granularity", json())},
              {"layers", g.layers},
              {"layers_measured", g.measured},
              {"layer_latency_sum_s", g.measured ? json(g.latency_sum) : json()},
              {"layer_energy_sum_j", g.measured && g.energy_known ? json(g.energy_sum) : json()}};
    for (const auto& k : board_setting_keys()) n[k] = g.first_params.value(k, json());
    if (g.e2e) {
      const auto& m = g.e2e->at("metrics");
      const double e2e = number_or(m, "latency_mean_s", 0);
      n["end_to_end_latency_s"] = e2e;
      n["end_to_end_power_w"] = m.value("power_w", json());
      n["end_to_end_energy_j"] = m.value("energy_j", json());
      // Isolated layers run with warm caches and no inter-layer overheads; a ratio far from 1
      // says the layer-wise data do not add up to the network (seed 002's check).
      n["layers_over_end_to_end"] = e2e > 0 && g.measured == g.layers ? json(g.latency_sum / e2e) : json();
      for (const char* k : {"params", "macs", "flops", "functional_layer_count"}) n[k] = m.value(k, json());
    } else {
      n["end_to_end_latency_s"] = nullptr;
      n["layers_over_end_to_end"] = nullptr;
    }
    nets.push_back(std::move(n));
  }
  return {{"networks", nets}};
}

nlohmann::ordered_json layers_dnnstats(const std::vector<nlohmann::json>& rows) {
  using ordered = nlohmann::ordered_json;
  // setting -> network -> device -> layer index -> (rails in mW, latency): numeric layer order,
  // settings, networks and devices in the job's own order.
  struct layer_entry {
    ordered power = ordered::object();
    ordered latency;
  };
  using layer_map = std::map<int, layer_entry>;
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::vector<std::pair<std::string, layer_map>>>>>> tree;
  const auto slot = [](auto& list, const std::string& key) -> auto& {
    for (auto& kv : list)
      if (kv.first == key) return kv.second;
    list.emplace_back(key, typename std::decay_t<decltype(list)>::value_type::second_type{});
    return list.back().second;
  };
  for (const auto& row : rows) {
    if (!ok(row)) continue;
    const auto& p = row.at("params");
    const auto index = p.value("layer_index", -1);
    if (index < 0) continue;
    const auto& m = row.at("metrics");
    auto& layer = slot(slot(slot(tree, setting_label(p)), p.value("network", std::string())),
                       dnnstats_device_key(p.value("device", std::string())))[index];
    for (auto it = m.begin(); it != m.end(); ++it) {
      // rail_<NAME>_w in W -> <NAME> in mW, the seed's unit.
      const auto rail = jobs::rail_of_column(it.key());
      if (!rail.empty() && it->is_number()) layer.power[rail] = it->get<double>() * 1e3;
    }
    layer.latency = m.contains("latency_mean_s") ? ordered(m["latency_mean_s"]) : ordered();
  }
  ordered by_setting = ordered::object();
  for (const auto& [setting, networks] : tree) {
    ordered& s = by_setting[setting];
    for (const auto& [network, devices] : networks)
      for (const auto& [device, layers] : devices) {
        ordered power = ordered::object(), latency = ordered::object();
        for (const auto& [index, entry] : layers) {
          power[std::to_string(index)] = entry.power;
          latency[std::to_string(index)] = entry.latency;
        }
        s[network][device] = {{"power", std::move(power)}, {"latency", std::move(latency)}};
      }
  }
  if (by_setting.size() == 1) return by_setting.begin().value();
  return by_setting;
}

}  // namespace jetperf::kinds
