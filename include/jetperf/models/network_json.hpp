#pragma once
// User networks as JSON layer lists (schema: proto/network.schema.json) and the layer tables
// that `GET /v1/models/{name}` and `jetperf models show` print.
#include <nlohmann/json.hpp>

#include <jetperf/models/network.hpp>

namespace jetperf::models {

/// Reads a user network. Throws jetperf::validation_error whose field is
/// "<field_prefix>.layers[i]" (and whose message names the layer) for an unknown layer type,
/// a missing or bad attribute, an unknown input, or shapes that do not fit.
network network_from_json(const nlohmann::json& j, const std::string& field_prefix = "spec.network");

/// The network's summary: name, input shape, params, MACs, FLOPs, functional layer count,
/// op and block counts.
nlohmann::json network_summary_json(const network& net);

/// The layer table at `g` with batch `batch`: one object per layer (index, name, type,
/// input_shapes, output_shape, params, macs, flops), plus the summary.
nlohmann::json layer_table_json(const network& net, granularity g, std::int64_t batch = 1);

}  // namespace jetperf::models
