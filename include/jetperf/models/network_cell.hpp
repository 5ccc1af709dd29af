#pragma once
// A user network as a job spec carries it, a cell (common/cell.hpp): what the kinds hand over,
// so that only the file format's reader (models/network_json.hpp) reads its JSON.
#include <string>

#include <jetperf/common/cell.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::models {

/// Reads a user network from a spec's cell; throws as network_from_json does (field
/// "<field_prefix>.layers[i]").
network network_from_cell(const cell& c, const std::string& field_prefix = "spec.network");

}  // namespace jetperf::models
