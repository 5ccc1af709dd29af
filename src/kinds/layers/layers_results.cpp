#include <jetperf/kinds/layers/layers_results.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/kinds/layers/layers_columns.hpp>
#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/stats/repeat_stats.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>

namespace jetperf::kinds {

using common::board_setting_keys;
using namespace layers;

namespace {

bool ok(const jobs::point_row& r) { return r.status == "ok"; }

// The parameters besides the board setting that make a network's run a variant of it.
constexpr const char* k_variant_keys[] = {"dtype", "batch", "input_size", "repeat"};

// The cell at `key`, null when absent.
cell cell_or_null(const record& r, const std::string& key) {
  const auto* c = r.find(key);
  return c ? *c : cell();
}

// A value as the labels show it: a string as it is, anything else as its JSON text (the labels
// and dnnstats keys have always been spelt so).
std::string value_text(const cell& v) {
  if (v.is_string()) return v.as_string();
  if (v.is_integer()) return std::to_string(*v.integer());
  if (v.is_bool()) return *v.boolean() ? "true" : "false";
  if (v.is_double() && std::isfinite(*v.number())) {
    // The shortest text that reads back as the same double (std::to_chars for doubles is
    // past gcc 9, the oldest compiler we build with).
    const double d = *v.number();
    char buf[32];
    for (int precision = 1; precision <= 17; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*g", precision, d);
      if (std::strtod(buf, nullptr) == d) break;
    }
    std::string text(buf);
    // JSON writes a whole double with its ".0".
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
  }
  return "null";  // null, NaN, and the lists and records no label holds
}

// The layer rows of an in_context point (after the first, the network's own), or nullptr.
const cell_list* in_context_layers(const jobs::point_row& r) {
  const auto& m = r.metrics;
  if (m.get(cols::protocol).value_or("") != "in_context") return nullptr;
  const auto* items = m.find(cols::layer_rows.name);
  if (!items || !items->is_list() || items->as_list().size() < 2 || !m.get(cols::latency_mean_s)) return nullptr;
  return &items->as_list();
}

// Its layers: each one that ran counts, and is measured when it has a power figure or is a
// member of a merged group (whose row has the figure; the group row itself is no layer).
void count_in_context_layers(const cell_list& items, std::size_t& layers, std::size_t& measured, double& latency_sum) {
  for (std::size_t i = 1; i < items.size(); ++i) {
    const row item(items[i].is_record() ? items[i].as_record() : record());
    const auto resolution = item.get(cols::layer_resolution).value_or("");
    if (resolution == "runs_nothing" || resolution == "group") continue;
    ++layers;
    if (resolution != "merged" && !item.get(measure::cols::power_w)) continue;
    ++measured;
    latency_sum += item.get(cols::latency_mean_s).value_or(0);
  }
}

// The standard error of a row's mean latency (its runs' spread), 0 when unknown.
double latency_se(const row& m) {
  const auto n = static_cast<double>(m.get(cols::latency_count).value_or(0));
  const double sd = m.get(cols::latency_std_s).value_or(0);
  return n > 0 ? sd / std::sqrt(n) : 0.0;
}

// The rows of one network on one device under one setting and variant: its layers (counted,
// and summed where measured) and its end-to-end row.
struct network_group {
  record first_params;
  std::size_t layers = 0, measured = 0;
  double latency_sum = 0, latency_se2 = 0, energy_sum = 0;
  bool energy_known = true;
  const jobs::point_row* e2e = nullptr;
  std::vector<row> isolated;  ///< the measured layer rows' metrics
};
using group_key = std::tuple<std::string, std::string, std::string>;  ///< variant label, network, device

// The groups keyed and ordered by first appearance (the job's own order).
struct network_groups {
  std::vector<group_key> order;
  std::map<group_key, network_group> by_key;
};

void add_layer_row(network_group& g, const jobs::point_row& r) {
  ++g.layers;
  if (!ok(r)) return;
  const auto& m = r.metrics;
  g.isolated.push_back(m);
  ++g.measured;
  g.latency_sum += m.get(cols::latency_mean_s).value_or(0);
  g.latency_se2 += latency_se(m) * latency_se(m);
  if (const auto energy = m.get(measure::cols::energy_j))
    g.energy_sum += *energy;
  else
    g.energy_known = false;
}

network_groups group_rows(const std::vector<jobs::point_row>& rows) {
  network_groups groups;
  for (const auto& r : rows) {
    // A point's params are keyed like its row's identity columns.
    const row p(r.params);
    const group_key key{variant_label(r.params), p.get(cols::network).value_or(""), p.get(cols::device).value_or("")};
    auto [it, fresh] = groups.by_key.try_emplace(key);
    if (fresh) {
      groups.order.push_back(key);
      it->second.first_params = r.params;
    }
    auto& g = it->second;
    if (p.get(cols::layer_index).value_or(0) >= 0) {
      add_layer_row(g, r);
      continue;
    }
    // An in_context point is the network's run and its layers' rows at once: it stands as the
    // end-to-end row when the network itself was measured, even where some layer was not.
    if (ok(r) || in_context_layers(r)) g.e2e = &r;
    if (const auto* items = in_context_layers(r)) count_in_context_layers(*items, g.layers, g.measured, g.latency_sum);
  }
  return groups;
}

bool complete(const network_group& g) { return g.measured == g.layers && g.measured > 0; }

// A network's summary row before its end-to-end columns: what it is, and its layers' sums.
record network_row(const group_key& key, const network_group& g) {
  const auto& fp = g.first_params;
  record n{{"network", std::get<1>(key)},
           {"device", std::get<2>(key)},
           {"setting", setting_label(fp)},
           {"granularity", cell_or_null(fp, cols::granularity.name)},
           {"layers", g.layers},
           {"layers_measured", g.measured},
           {"layer_latency_sum_s", g.measured ? cell(g.latency_sum) : cell()},
           {"layer_energy_sum_j", g.measured && g.energy_known ? cell(g.energy_sum) : cell()}};
  // In context the layers' energies come from the end-to-end runs themselves (the point's sum).
  if (g.e2e && in_context_layers(*g.e2e))
    n.set("layer_energy_sum_j", cell_or_null(g.e2e->metrics.cells(), cols::layer_energy_sum_j.name));
  for (const char* k : k_variant_keys) n.set(k, cell_or_null(fp, k));
  for (const auto& k : common::board_setting_keys()) n.set(k, cell_or_null(fp, k));
  return n;
}

// Each layer isolated beside in context (seed 002's check per layer), where the end-to-end row
// timed its layers in context.
void put_in_context(record& n, const network_group& g) {
  const auto in_context = g.e2e->metrics.get(cols::in_context);
  if (!in_context || in_context->empty()) return;
  auto per_layer = compare_in_context(*in_context, g.isolated);
  n.set("layers_disagreeing", std::count_if(per_layer.begin(), per_layer.end(), [](const cell& l) {
          const auto* disagrees = l.as_record().find("disagrees");
          return disagrees && disagrees->boolean().value_or(false);
        }));
  n.set("layers_in_context", std::move(per_layer));
}

// The end-to-end row's columns against the layers' sum (null without one).
void put_end_to_end(record& n, const network_group& g) {
  if (!g.e2e) {
    n.set("end_to_end_latency_s", nullptr);
    n.set("layers_over_end_to_end", nullptr);
    return;
  }
  const auto& m = g.e2e->metrics;
  const double e2e = m.get(cols::latency_mean_s).value_or(0);
  n.set("end_to_end_latency_s", e2e);
  n.set("end_to_end_power_w", cell_or_null(m.cells(), measure::cols::power_w.name));
  n.set("end_to_end_energy_j", cell_or_null(m.cells(), measure::cols::energy_j.name));
  // Isolated layers run with warm caches and no inter-layer overheads; a ratio far from 1
  // says the layer-wise data do not add up to the network (seed 002's check).
  n.set("layers_over_end_to_end", e2e > 0 && complete(g) ? cell(g.latency_sum / e2e) : cell());
  for (const char* k : {cols::params.name, cols::macs.name, cols::flops.name, cols::functional_layer_count.name})
    n.set(k, cell_or_null(m.cells(), k));
  put_in_context(n, g);
}

// Across repeats: the same network, device, setting and variant but for the repeat, in order of
// first appearance.
struct repeat_series {
  record identity;
  std::vector<double> e2e, e2e_se, sum, sum_se, ratio, energy;
  /// The end-to-end latencies of the repeats whose layers add up (those `sum` and `ratio` have).
  std::vector<double> e2e_summed, e2e_summed_se;
};
struct repeat_groups {
  std::vector<std::string> order;
  std::map<std::string, repeat_series> by_id;
};

// A network's row (`n`, with its end-to-end columns) joins its series across repeats.
void add_to_repeats(repeat_groups& repeats, const record& n, const network_group& g) {
  const auto& m = g.e2e->metrics;
  const double e2e = m.get(cols::latency_mean_s).value_or(0);
  // The series' key: its identity's values, apart (a unit separator cannot occur in them).
  std::string id;
  for (const char* k : {"network", "device", "setting", "dtype", "batch", "input_size"})
    id += value_text(n.at(k)) + (n.at(k).is_string() ? "\x1f" : "\x1e");
  auto [it, fresh] = repeats.by_id.try_emplace(id);
  if (fresh) {
    repeats.order.push_back(id);
    for (const char* k : {"network", "device", "setting", "granularity", "dtype", "batch", "input_size"})
      it->second.identity.set(k, n.at(k));
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
    a.e2e_summed.push_back(e2e);
    a.e2e_summed_se.push_back(e2e_se);
  }
  if (const auto energy = m.get(measure::cols::energy_j)) a.energy.push_back(*energy);
}

// One row per series of at least two repeats: each quantity's mean and interval across them.
cell_list repeat_rows(const repeat_groups& repeats) {
  cell_list rows;
  for (const auto& id : repeats.order) {
    const auto& a = repeats.by_id.at(id);
    if (a.e2e.size() < 2) continue;
    record r = a.identity;
    const auto e2e = stats::summarize_repeats(a.e2e, a.e2e_se);
    const auto sum = stats::summarize_repeats(a.sum, a.sum.size() == a.sum_se.size() ? a.sum_se : std::vector<double>{});
    // The ratio's interval from its parts' (the layers' sum over the end-to-end latency of the same
    // repeats): never symmetric around it, never below zero.
    const auto e2e_summed = stats::summarize_repeats(a.e2e_summed, a.e2e_summed_se);
    const auto ratio = stats::summarize_ratio(sum, e2e_summed, a.ratio);
    r.set("end_to_end_latency_s", e2e.to_record());
    r.set("layer_latency_sum_s", a.sum.empty() ? cell() : cell(sum.to_record()));
    r.set("layers_over_end_to_end", a.ratio.empty() ? cell() : cell(ratio.to_record()));
    r.set("end_to_end_energy_j", a.energy.empty() ? cell() : cell(stats::summarize_repeats(a.energy, {}).to_record()));
    r.set("repeats_disagree", e2e.disagree || sum.disagree || ratio.disagree);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

std::string setting_label(const record& params) { return measure::setting_of_point(params).label(); }

std::string variant_label(const record& params) {
  std::string label = setting_label(params);
  for (const char* k : k_variant_keys)
    if (const auto* v = params.find(k)) label += std::string(",") + k + "=" + value_text(*v);
  return label;
}

std::string variant_label(const layers_point& p) {
  return p.setting.label() + ",dtype=" + p.dtype + ",batch=" + std::to_string(p.batch) +
         ",input_size=" + (p.input_size ? std::to_string(*p.input_size) : "null") + ",repeat=" + std::to_string(p.repeat);
}

cell summarize_layers(const std::vector<jobs::point_row>& rows) {
  const auto groups = group_rows(rows);
  cell_list nets;
  repeat_groups repeats;
  for (const auto& key : groups.order) {
    const auto& g = groups.by_key.at(key);
    record n = network_row(key, g);
    put_end_to_end(n, g);
    if (g.e2e) add_to_repeats(repeats, n, g);
    nets.push_back(std::move(n));
  }
  record summary{{"networks", std::move(nets)}};
  auto across_rows = repeat_rows(repeats);
  if (!across_rows.empty()) summary.set("repeats", std::move(across_rows));
  return summary;
}

namespace {

// One layer of the seed's layout: its rails in mW (in the order of their columns' names, as the
// stored rows list them) and its latency.
struct dnnstats_layer {
  record power;
  cell latency;
};
using dnnstats_layers = std::map<int, dnnstats_layer>;  ///< numeric layer order
template <class T>
using keyed = std::vector<std::pair<std::string, T>>;   ///< in the job's own order
/// setting -> network -> device -> layers.
using dnnstats_tree = keyed<keyed<keyed<dnnstats_layers>>>;

template <class T>
T& slot(keyed<T>& list, const std::string& key) {
  for (auto& kv : list)
    if (kv.first == key) return kv.second;
  list.emplace_back(key, T{});
  return list.back().second;
}

void add_dnnstats_layer(dnnstats_layer& layer, const row& m) {
  // rail_<NAME>_w in W -> <NAME> in mW, the seed's unit.
  std::map<std::string, double> rails;  // by column name
  for (const auto& [key, value] : m.cells())
    if (!rail_of_column(key).empty() && value.is_number()) rails[key] = *value.number() * 1e3;
  for (const auto& [column, mw] : rails) layer.power.set(rail_of_column(column), mw);
  const auto* latency = m.find(cols::latency_mean_s.name);
  layer.latency = latency ? *latency : cell();
}

record dnnstats_of(const dnnstats_tree& tree) {
  record by_setting;
  for (const auto& [setting, networks] : tree) {
    record s;
    for (const auto& [network, devices] : networks) {
      record net;
      for (const auto& [device, layers] : devices) {
        record power, latency;
        for (const auto& [index, entry] : layers) {
          power.set(std::to_string(index), entry.power);
          latency.set(std::to_string(index), entry.latency);
        }
        net.set(device, record{{"power", std::move(power)}, {"latency", std::move(latency)}});
      }
      s.set(network, std::move(net));
    }
    by_setting.set(setting, std::move(s));
  }
  return by_setting;
}

}  // namespace

cell layers_dnnstats(const std::vector<jobs::point_row>& rows) {
  // The variant keys that take more than one value in this job join the setting's label, so a
  // job of one dtype, batch, size and repeat keeps the seed's layout (and its labels).
  std::map<std::string, std::set<std::string>> seen;
  for (const auto& r : rows)
    for (const char* k : k_variant_keys) seen[k].insert(value_text(cell_or_null(r.params, k)));
  const auto label = [&](const record& p) {
    std::string l = setting_label(p);
    for (const char* k : k_variant_keys)
      if (seen[k].size() > 1) l += std::string(",") + k + "=" + value_text(cell_or_null(p, k));
    return l;
  };
  dnnstats_tree tree;
  for (const auto& r : rows) {
    if (!ok(r)) continue;
    const row p(r.params);
    const auto index = p.get(cols::layer_index).value_or(-1);
    if (index < 0) continue;
    auto& layers = slot(slot(slot(tree, label(r.params)), p.get(cols::network).value_or("")),
                        dnnstats_device_key(p.get(cols::device).value_or("")));
    add_dnnstats_layer(layers[static_cast<int>(index)], r.metrics);
  }
  auto by_setting = dnnstats_of(tree);
  if (by_setting.size() == 1) return by_setting.begin()->second;
  return by_setting;
}

}  // namespace jetperf::kinds
