#pragma once
// User networks as JSON layer lists (schema: proto/network.schema.json), as job specs carry them.
// (The zoo's and a network's tables as the API shows them are api/model_views.hpp.)
#include <nlohmann/json.hpp>

#include <jetperf/models/network.hpp>

namespace jetperf::models {

/// Reads a user network. Throws jetperf::validation_error whose field is
/// "<field_prefix>.layers[i]" (and whose message names the layer) for an unknown layer type,
/// a missing or bad attribute, an unknown input, or shapes that do not fit.
network network_from_json(const nlohmann::json& j, const std::string& field_prefix = "spec.network");


}  // namespace jetperf::models
