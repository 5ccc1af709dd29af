#include <jetperf/kinds/multi_dnn/multi_dnn_results.hpp>

#include <cstdio>
#include <map>

namespace jetperf::kinds {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The stage key of the seed's stageSummary and ModelInfo: the device, made unique where a
// network comes back to a device it left.
std::string stage_key(const json& stage, std::map<std::string, int>& used) {
  const auto device = stage.value("device", std::string());
  return used[device]++ == 0 ? device : device + ":" + std::to_string(stage.value("stage_index", 0));
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

json summarize_multi_dnn(const std::vector<json>& rows) {
  json classes = json::object();
  std::size_t measured = 0, skipped = 0, failed = 0;
  json best_throughput, best_efficiency;
  for (const auto& r : rows) {
    const auto& m = r.at("metrics");
    const auto& p = r.at("params");
    const auto status = r.value("status", std::string());
    const auto cls = p.value("mapping_class", std::string("?"));
    classes[cls] = classes.value(cls, 0) + 1;
    if (status == "skipped") ++skipped;
    if (status == "failed") ++failed;
    if (status != "ok" || !m.contains("throughput_ips") || !m["throughput_ips"].is_number()) continue;
    ++measured;
    const double ips = m["throughput_ips"].get<double>();
    const json id = {{"mapping_id", p.value("mapping_id", -1)}, {"mapping", p.value("mapping", json())}};
    if (best_throughput.is_null() || ips > best_throughput["throughput_ips"].get<double>()) {
      best_throughput = id;
      best_throughput["throughput_ips"] = ips;
    }
    if (m.contains("power_w") && m["power_w"].is_number() && m["power_w"].get<double>() > 0) {
      const double per_j = ips / m["power_w"].get<double>();
      if (best_efficiency.is_null() || per_j > best_efficiency["inferences_per_j"].get<double>()) {
        best_efficiency = id;
        best_efficiency["inferences_per_j"] = per_j;
        best_efficiency["power_w"] = m["power_w"];
      }
    }
  }
  return {{"mappings", rows.size()}, {"measured", measured}, {"skipped", skipped}, {"failed", failed},
          {"classes", classes},      {"best_throughput", best_throughput}, {"best_efficiency", best_efficiency}};
}

ordered_json multinet_export(const std::vector<json>& rows) {
  ordered_json docs = ordered_json::array();
  for (const auto& r : rows) {
    if (r.value("status", std::string()) != "ok") continue;
    const auto& m = r.at("metrics");
    const auto& p = r.at("params");
    ordered_json doc;
    doc["mapping_id"] = p.value("mapping_id", -1);
    doc["mapping"] = ordered_json::parse(m.value("mapping", p.value("mapping", json::object())).dump());
    ordered_json summary = ordered_json::object(), info = ordered_json::object();
    std::map<std::string, std::map<std::string, int>> used;
    for (const auto& s : m.value("stages", json::array())) {
      const auto net = s.value("network", std::string());
      const auto key = stage_key(s, used[net]);
      const auto transfer = s.value("transfer_mean_s", json());
      summary[net][key] = {{"infCount", s.value("inference_count", 0)},
                           {"avgInfTime", s.value("inference_mean_s", 0.0)},
                           {"avgTransferTime", transfer.is_number() ? transfer.get<double>() : -1.0}};
      info[net][key] = {{"params", clever_format(s.value("params", 0.0))},
                        {"macs", clever_format(s.value("macs", 0.0))},
                        {"flops", clever_format(s.value("flops", 0.0))},
                        {"functionalLayerCount", s.value("functional_layer_count", 0)}};
    }
    doc["stageSummary"] = summary;
    doc["samplingDuration"] = m.value("window_s", 0.0);
    doc["Mode"] = m.value("power_mode", p.value("power_mode", json()));
    doc["Device"] = nullptr;
    doc["Tegrastats"] = ordered_json::parse(m.value("tegrastats", json::object()).dump());
    doc["ModelInfo"] = info;
    docs.push_back(std::move(doc));
  }
  ordered_json out;
  out["mappings"] = docs;
  return out;
}

}  // namespace jetperf::kinds
