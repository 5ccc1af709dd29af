#include <jetperf/api/model_views.hpp>

namespace jetperf::api {

using nlohmann::json;
using models::layer;
using models::shape;

nlohmann::json network_summary_json(const models::network& net) {
  return json{{"name", net.name},
              {"input_shape", net.input_shape},
              {"params", net.params()},
              {"macs", net.macs()},
              {"flops", net.flops()},
              {"functional_layer_count", net.functional_layer_count()},
              {"ops", net.ops.size()},
              {"blocks", net.blocks.size()}};
}

nlohmann::json layer_table_json(const models::network& net, models::granularity g, std::int64_t batch) {
  auto with_batch = [batch](const shape& s) {
    std::vector<std::int64_t> out{batch};
    out.insert(out.end(), s.begin(), s.end());
    return out;
  };
  json rows = json::array();
  for (const layer& l : layers_of(net, g)) {
    json inputs = json::array();
    for (const auto& s : l.input_shapes) inputs.push_back(with_batch(s));
    // params, MACs and FLOPs are per sample, as the network's totals are.
    rows.push_back(json{{"index", l.index},
                        {"name", l.name},
                        {"type", l.type},
                        {"input_shapes", inputs},
                        {"output_shape", with_batch(l.output_shape)},
                        {"params", l.params},
                        {"macs", l.macs},
                        {"flops", l.flops}});
  }
  json out = network_summary_json(net);
  out["granularity"] = to_string(g);
  out["batch"] = batch;
  out["layers"] = std::move(rows);
  return out;
}

}  // namespace jetperf::api
