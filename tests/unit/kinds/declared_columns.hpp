#pragma once
// Every key a kind's point writes must be one of the kind's declared columns (or a rail column):
// the result formats and the client read only the table.
#include <string>

#include <jetperf/common/columns.hpp>
#include <jetperf/jobs/workload.hpp>

namespace jetperf::test {

/// The metrics keys `w`'s table does not declare, comma-separated ("" when all are declared).
inline std::string undeclared_keys(const jobs::workload& w, const nlohmann::json& metrics) {
  const auto columns = output_columns(w.columns(), {});
  std::string out;
  for (auto it = metrics.begin(); it != metrics.end(); ++it) {
    const bool rail = w.columns().rails && !rail_of_column(it.key()).empty();
    if (!rail && !find_column(columns, it.key())) out += (out.empty() ? "" : ",") + it.key();
  }
  return out;
}

}  // namespace jetperf::test
