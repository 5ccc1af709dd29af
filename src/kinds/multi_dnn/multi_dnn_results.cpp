#include <jetperf/kinds/multi_dnn/multi_dnn_results.hpp>

#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include <jetperf/kinds/multi_dnn/multi_dnn_columns.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/kinds/common/verdict_exclusion.hpp>

namespace jetperf::kinds {

namespace {

namespace cols = multi_dnn::cols;

// A stored value, or `fallback` where the point has none.
cell value_or(const record& r, const char* key, cell fallback) {
  const auto* v = r.find(key);
  return v ? *v : fallback;
}

// The stage key of the seed's stageSummary and ModelInfo: the device, made unique where a
// network comes back to a device it left.
std::string stage_key(const row& stage, std::map<std::string, int>& used) {
  const auto device = stage.get(cols::device).value_or("");
  return used[device]++ == 0 ? device : device + ":" + std::to_string(stage.get(cols::stage_index).value_or(0));
}

// A count as the seed's ModelInfo writes it, from an integer or a number.
std::string counted(const row& stage, const column_key<std::int64_t>& key) {
  const auto* v = stage.find(key.name);
  return clever_format(v && v->is_number() ? *v->number() : 0.0);
}

}  // namespace

std::string clever_format(double v) {
  const char* unit = "B";
  double scaled = v;
  if (v > 1e12) unit = "T", scaled = v / 1e12;
  else if (v > 1e9) unit = "G", scaled = v / 1e9;
  else if (v > 1e6) unit = "M", scaled = v / 1e6;
  else if (v > 1e3) unit = "K", scaled = v / 1e3;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s", scaled, unit);
  return buf;
}

namespace {

// The best mapping by one figure per second of the window (inferences per second, per joule, per
// joule over idle).
struct best_by {
  const char* figure;
  std::optional<record> best;

  void offer(const record& id, double value, std::optional<double> power_w) {
    if (best && value <= *best->at(figure).number()) return;
    best = id;
    best->set(figure, value);
    if (power_w) best->set("power_w", *power_w);
  }
  cell result() const { return best ? cell(*best) : cell(); }
};

}  // namespace

record summarize_multi_dnn(const std::vector<jobs::point_row>& rows) {
  std::map<std::string, std::int64_t> classes;
  std::size_t measured = 0, skipped = 0, failed = 0;
  best_by throughput{"throughput_ips", {}}, efficiency{"inferences_per_j", {}},
      dynamic_efficiency{"inferences_per_dynamic_j", {}};
  // Points the verdicts leave out (an implausible figure, a contended or short window), counted
  // once per point (a mapping's point has a row per stage).
  std::map<std::string, std::int64_t> left_out;
  std::set<std::int64_t> left_points;
  for (const auto& r : rows) {
    const auto& m = r.metrics;
    const auto& p = r.params;
    const auto* cls = p.find("mapping_class");
    ++classes[cls && cls->is_string() ? cls->as_string() : "?"];
    if (r.status == "skipped") ++skipped;
    if (r.status == "failed") ++failed;
    const auto ips = m.get(cols::throughput_ips);
    if (!common::verdict_sees(r.status) || !ips) continue;
    ++measured;
    const record id{{"mapping_id", value_or(p, "mapping_id", -1)}, {"mapping", value_or(p, "mapping", cell())}};
    if (const auto why = common::verdict_exclusion(r.status, m); !why.empty()) {
      if (left_points.insert(r.index).second) ++left_out[why];
      continue;
    }
    throughput.offer(id, *ips, std::nullopt);
    const auto power_w = m.get(measure::cols::power_w);
    if (power_w && *power_w > 0) efficiency.offer(id, *ips / *power_w, *power_w);
    const auto dynamic_w = m.get(measure::cols::dynamic_power_w);
    if (dynamic_w && *dynamic_w > 0) dynamic_efficiency.offer(id, *ips / *dynamic_w, *dynamic_w);
  }
  record out{{"mappings", rows.size()},
             {"measured", measured},
             {"skipped", skipped},
             {"failed", failed},
             {"classes", classes},
             {"best_throughput", throughput.result()},
             {"best_efficiency", efficiency.result()},
             {"best_dynamic_efficiency", dynamic_efficiency.result()}};
  if (!left_out.empty()) out.set("left_out", left_out);
  return out;
}

record multinet_export(const std::vector<jobs::point_row>& rows) {
  cell_list docs;
  for (const auto& r : rows) {
    if (r.status != "ok") continue;
    const auto& m = r.metrics;
    const auto& p = r.params;
    record doc;
    doc.set("mapping_id", value_or(p, "mapping_id", -1));
    doc.set("mapping", value_or(m.cells(), "mapping", value_or(p, "mapping", record())));
    record summary, info;
    std::map<std::string, std::map<std::string, int>> used;
    for (const auto& item : m.get(cols::stages).value_or(cell_list())) {
      if (!item.is_record()) continue;
      const row s(item.as_record());
      const auto net = s.get(cols::network).value_or("");
      const auto key = stage_key(s, used[net]);
      const auto* inferences = s.find(cols::inference_count.name);
      const auto* mean = s.find(cols::inference_mean_s.name);
      const auto transfer = s.get(cols::transfer_mean_s);
      if (!summary.contains(net)) summary.set(net, record());
      summary.find(net)->as_record().set(
          key, record{{"infCount", inferences && inferences->is_number() ? *inferences : cell(0)},
                      {"avgInfTime", mean && mean->is_number() ? *mean : cell(0.0)},
                      {"avgTransferTime", transfer.value_or(-1.0)}});
      if (!info.contains(net)) info.set(net, record());
      info.find(net)->as_record().set(
          key, record{{"params", counted(s, cols::params)},
                      {"macs", counted(s, cols::macs)},
                      {"flops", counted(s, cols::flops)},
                      {"functionalLayerCount", value_or(s.cells(), cols::functional_layer_count.name, 0)}});
    }
    doc.set("stageSummary", std::move(summary));
    doc.set("samplingDuration", value_or(m.cells(), cols::window_s.name, 0.0));
    doc.set("Mode", value_or(m.cells(), "power_mode", value_or(p, "power_mode", cell())));
    doc.set("Device", nullptr);
    doc.set("Tegrastats", value_or(m.cells(), cols::tegrastats.name, record()));
    doc.set("ModelInfo", std::move(info));
    docs.push_back(std::move(doc));
  }
  return {{"mappings", std::move(docs)}};
}

}  // namespace jetperf::kinds
