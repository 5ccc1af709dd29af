#include <jetperf/kinds/json_row_bridge.hpp>
#include <jetperf/kinds/layers/layers_results.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <jetperf/common/cell_json.hpp>
#include <jetperf/common/columns.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/repeat_stats.hpp>
#include <jetperf/measure/sweep_axes.hpp>

namespace jetperf::kinds {

using measure::board_setting_keys;

namespace {

using nlohmann::json;

bool ok(const json& row) { return row.value("status", std::string()) == "ok"; }

double number_or(const json& j, const char* key, double fallback) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

// The parameters besides the board setting that make a network's run a variant of it.
constexpr const char* k_variant_keys[] = {"dtype", "batch", "input_size", "repeat"};

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The layer rows of an in_context point (after the first, the network's own), or nullptr.
const json* in_context_layers(const json& row) {
  const auto& m = row.at("metrics");
  if (!m.is_object() || m.value("protocol", std::string()) != "in_context") return nullptr;
  const auto it = m.find("layer_rows");
  if (it == m.end() || !it->is_array() || it->size() < 2 || !m.contains("latency_mean_s") ||
      !m["latency_mean_s"].is_number())
    return nullptr;
  return &*it;
}

// Its layers: each one that ran counts, and is measured when it has a power figure.
void count_in_context_layers(const json& items, std::size_t& layers, std::size_t& measured, double& latency_sum) {
  for (std::size_t i = 1; i < items.size(); ++i) {
    const auto& item = items[i];
    if (item.value("layer_resolution", std::string()) == "runs_nothing") continue;
    ++layers;
    if (!item.contains("power_w") || !item["power_w"].is_number()) continue;
    ++measured;
    latency_sum += number_or(item, "latency_mean_s", 0);
  }
}

// The standard error of a row's mean latency (its runs' spread), 0 when unknown.
double latency_se(const json& m) {
  const double n = number_or(m, "latency_count", 0), sd = number_or(m, "latency_std_s", 0);
  return n > 0 ? sd / std::sqrt(n) : 0.0;
}

// The rows of one network on one device under one setting and variant: its layers (counted,
// and summed where measured) and its end-to-end row.
struct network_group {
  json first_params;
  std::size_t layers = 0, measured = 0;
  double latency_sum = 0, latency_se2 = 0, energy_sum = 0;
  bool energy_known = true;
  const json* e2e = nullptr;
  std::vector<json> isolated;  ///< the measured layer rows' metrics
};
using group_key = std::tuple<std::string, std::string, std::string>;  ///< variant label, network, device

// The groups keyed and ordered by first appearance (the job's own order).
struct network_groups {
  std::vector<group_key> order;
  std::map<group_key, network_group> by_key;
};

void add_layer_row(network_group& g, const json& row) {
  ++g.layers;
  if (!ok(row)) return;
  const auto& m = row.at("metrics");
  g.isolated.push_back(m);
  ++g.measured;
  g.latency_sum += number_or(m, "latency_mean_s", 0);
  g.latency_se2 += latency_se(m) * latency_se(m);
  if (m.contains("energy_j") && m["energy_j"].is_number())
    g.energy_sum += m["energy_j"].get<double>();
  else
    g.energy_known = false;
}

network_groups group_rows(const std::vector<json>& rows) {
  network_groups groups;
  for (const auto& row : rows) {
    const auto& p = row.at("params");
    const group_key key{variant_label(p), p.value("network", std::string()), p.value("device", std::string())};
    auto [it, fresh] = groups.by_key.try_emplace(key);
    if (fresh) {
      groups.order.push_back(key);
      it->second.first_params = p;
    }
    auto& g = it->second;
    if (p.value("layer_index", 0) >= 0) {
      add_layer_row(g, row);
      continue;
    }
    // An in_context point is the network's run and its layers' rows at once: it stands as the
    // end-to-end row when the network itself was measured, even where some layer was not.
    if (ok(row) || in_context_layers(row)) g.e2e = &row;
    if (const auto* items = in_context_layers(row)) count_in_context_layers(*items, g.layers, g.measured, g.latency_sum);
  }
  return groups;
}

bool complete(const network_group& g) { return g.measured == g.layers && g.measured > 0; }

// A network's summary row before its end-to-end columns: what it is, and its layers' sums.
json network_row(const group_key& key, const network_group& g) {
  const auto& fp = g.first_params;
  json n = {{"network", std::get<1>(key)},
            {"device", std::get<2>(key)},
            {"setting", setting_label(fp)},
            {"granularity", fp.value("granularity", json())},
            {"layers", g.layers},
            {"layers_measured", g.measured},
            {"layer_latency_sum_s", g.measured ? json(g.latency_sum) : json()},
            {"layer_energy_sum_j", g.measured && g.energy_known ? json(g.energy_sum) : json()}};
  // In context the layers' energies come from the end-to-end runs themselves (the point's sum).
  if (g.e2e && in_context_layers(*g.e2e)) n["layer_energy_sum_j"] = g.e2e->at("metrics").value("layer_energy_sum_j", json());
  for (const char* k : k_variant_keys) n[k] = fp.value(k, json());
  for (const auto& k : board_setting_keys()) n[k] = fp.value(k, json());
  return n;
}

// The end-to-end row's columns against the layers' sum (null without one).
void put_end_to_end(json& n, const network_group& g) {
  if (!g.e2e) {
    n["end_to_end_latency_s"] = nullptr;
    n["layers_over_end_to_end"] = nullptr;
    return;
  }
  const auto& m = g.e2e->at("metrics");
  const double e2e = number_or(m, "latency_mean_s", 0);
  n["end_to_end_latency_s"] = e2e;
  n["end_to_end_power_w"] = m.value("power_w", json());
  n["end_to_end_energy_j"] = m.value("energy_j", json());
  // Isolated layers run with warm caches and no inter-layer overheads; a ratio far from 1
  // says the layer-wise data do not add up to the network (seed 002's check).
  n["layers_over_end_to_end"] = e2e > 0 && complete(g) ? json(g.latency_sum / e2e) : json();
  for (const char* k : {"params", "macs", "flops", "functional_layer_count"}) n[k] = m.value(k, json());
  // Each layer isolated beside in context (seed 002's check per layer).
  if (m.contains("in_context") && m["in_context"].is_object() && !m["in_context"].empty()) {
    auto per_layer = compare_in_context(m["in_context"], g.isolated);
    n["layers_disagreeing"] = std::count_if(per_layer.begin(), per_layer.end(),
                                            [](const json& l) { return l.value("disagrees", false); });
    n["layers_in_context"] = std::move(per_layer);
  }
}

// Across repeats: the same network, device, setting and variant but for the repeat, in order of
// first appearance.
struct repeat_series {
  json identity;
  std::vector<double> e2e, e2e_se, sum, sum_se, ratio, ratio_se, energy;
};
struct repeat_groups {
  std::vector<std::string> order;
  std::map<std::string, repeat_series> by_id;
};

// A network's row (`n`, with its end-to-end columns) joins its series across repeats.
void add_to_repeats(repeat_groups& repeats, const json& n, const network_group& g) {
  const auto& m = g.e2e->at("metrics");
  const double e2e = number_or(m, "latency_mean_s", 0);
  const auto id =
      json{n.at("network"), n.at("device"), n.at("setting"), n.at("dtype"), n.at("batch"), n.at("input_size")}.dump();
  auto [it, fresh] = repeats.by_id.try_emplace(id);
  if (fresh) {
    repeats.order.push_back(id);
    for (const char* k : {"network", "device", "setting", "granularity", "dtype", "batch", "input_size"})
      it->second.identity[k] = n.at(k);
  }
  auto& a = it->second;
  const double e2e_se = latency_se(m);
  a.e2e.push_back(e2e);
  a.e2e_se.push_back(e2e_se);
  if (complete(g) && e2e > 0) {
    const double sum_se = std::sqrt(g.latency_se2), r = g.latency_sum / e2e;
    a.sum.push_back(g.latency_sum);
    a.sum_se.push_back(sum_se);
    a.ratio.push_back(r);
    // The ratio's error from both of its parts' (first order).
    a.ratio_se.push_back(r * std::hypot(g.latency_sum > 0 ? sum_se / g.latency_sum : 0.0, e2e_se / e2e));
  }
  if (m.contains("energy_j") && m["energy_j"].is_number()) a.energy.push_back(m["energy_j"].get<double>());
}

// One row per series of at least two repeats: each quantity's mean and interval across them.
json repeat_rows(const repeat_groups& repeats) {
  json rows = json::array();
  for (const auto& id : repeats.order) {
    const auto& a = repeats.by_id.at(id);
    if (a.e2e.size() < 2) continue;
    json row = a.identity;
    const auto e2e = measure::summarize_repeats(a.e2e, a.e2e_se);
    const auto sum = measure::summarize_repeats(a.sum, a.sum.size() == a.sum_se.size() ? a.sum_se : std::vector<double>{});
    const auto ratio = measure::summarize_repeats(a.ratio, a.ratio_se);
    row["end_to_end_latency_s"] = jetperf::to_json(e2e.to_record());
    row["layer_latency_sum_s"] = a.sum.empty() ? json() : jetperf::to_json(sum.to_record());
    row["layers_over_end_to_end"] = a.ratio.empty() ? json() : jetperf::to_json(ratio.to_record());
    row["end_to_end_energy_j"] = a.energy.empty() ? json() : jetperf::to_json(measure::summarize_repeats(a.energy, {}).to_record());
    row["repeats_disagree"] = e2e.disagree || sum.disagree || ratio.disagree;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string setting_label(const nlohmann::json& params) { return measure::setting_of_point(record_of(params)).label(); }

std::string variant_label(const nlohmann::json& params) {
  std::string label = setting_label(params);
  for (const char* k : k_variant_keys)
    if (params.contains(k)) label += std::string(",") + k + "=" + value_text(params[k]);
  return label;
}

std::string variant_label(const layers_point& p) {
  return p.setting.label() + ",dtype=" + p.dtype + ",batch=" + std::to_string(p.batch) +
         ",input_size=" + (p.input_size ? std::to_string(*p.input_size) : "null") + ",repeat=" + std::to_string(p.repeat);
}

nlohmann::json summarize_layers(const std::vector<nlohmann::json>& rows) {
  const auto groups = group_rows(rows);
  json nets = json::array();
  repeat_groups repeats;
  for (const auto& key : groups.order) {
    const auto& g = groups.by_key.at(key);
    json n = network_row(key, g);
    put_end_to_end(n, g);
    if (g.e2e) add_to_repeats(repeats, n, g);
    nets.push_back(std::move(n));
  }
  json summary = {{"networks", nets}};
  auto across_rows = repeat_rows(repeats);
  if (!across_rows.empty()) summary["repeats"] = std::move(across_rows);
  return summary;
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
  // The variant keys that take more than one value in this job join the setting's label, so a
  // job of one dtype, batch, size and repeat keeps the seed's layout (and its labels).
  std::map<std::string, std::set<std::string>> seen;
  for (const auto& row : rows)
    for (const char* k : k_variant_keys) seen[k].insert(value_text(row.at("params").value(k, json())));
  const auto label = [&](const json& p) {
    std::string l = setting_label(p);
    for (const char* k : k_variant_keys)
      if (seen[k].size() > 1) l += std::string(",") + k + "=" + value_text(p.value(k, json()));
    return l;
  };
  for (const auto& row : rows) {
    if (!ok(row)) continue;
    const auto& p = row.at("params");
    const auto index = p.value("layer_index", -1);
    if (index < 0) continue;
    const auto& m = row.at("metrics");
    auto& layer = slot(slot(slot(tree, label(p)), p.value("network", std::string())),
                       dnnstats_device_key(p.value("device", std::string())))[index];
    for (auto it = m.begin(); it != m.end(); ++it) {
      // rail_<NAME>_w in W -> <NAME> in mW, the seed's unit.
      const auto rail = rail_of_column(it.key());
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
