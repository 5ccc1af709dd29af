#pragma once
// Transitional: the kinds whose run_point still builds its row as JSON (command, layers,
// multi_dnn) write the protocol's typed columns through here. Goes when they build rows
// through their column constants like gemm and idle.
#include <utility>

#include <nlohmann/json.hpp>

#include <jetperf/common/cell_json.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf::kinds {

/// Runs `write(row&)` and copies what it wrote into `metrics`.
template <class Write>
void put_into(nlohmann::json& metrics, Write&& write) {
  row r;
  std::forward<Write>(write)(r);
  for (const auto& e : r.cells()) metrics[e.first] = to_json(e.second);
}

}  // namespace jetperf::kinds
