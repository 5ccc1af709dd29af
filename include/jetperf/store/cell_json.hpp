#pragma once
// Cells as JSON and back: the one conversion, where values cross the edge (store/ writes
// rows and timelines, api/ serves views).
#include <nlohmann/json.hpp>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf {

/// Records as objects (keys sorted, as stored), lists as arrays, null as null.
nlohmann::json to_json(const cell& c);
nlohmann::json to_json(const record& r);
nlohmann::json to_json(const row& r);
/// Records keep the order their keys were set in (exports that are file formats of their own).
nlohmann::ordered_json to_ordered_json(const cell& c);
/// A JSON value as a cell (unsigned integers as integers; objects keep the JSON's key order).
cell cell_of(const nlohmann::json& j);
cell cell_of(const nlohmann::ordered_json& j);
/// An object's members as a record (an empty one for anything else).
record record_of(const nlohmann::json& j);
row row_of(const nlohmann::json& j);

}  // namespace jetperf
