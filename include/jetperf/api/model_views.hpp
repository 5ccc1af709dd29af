#pragma once
// Networks as the API shows them: GET /v1/models (summaries) and GET /v1/models/{name} (the
// layer table that `jetperf models show` prints).
#include <cstdint>

#include <nlohmann/json.hpp>

#include <jetperf/models/network.hpp>

namespace jetperf::api {

/// The network's summary: name, input shape, params, MACs, FLOPs, functional layer count,
/// op and block counts.
nlohmann::json network_summary_json(const models::network& net);

/// The layer table at `g` with batch `batch`: one object per layer (index, name, type,
/// input_shapes, output_shape, params, macs, flops), plus the summary.
nlohmann::json layer_table_json(const models::network& net, models::granularity g, std::int64_t batch = 1);

}  // namespace jetperf::api
