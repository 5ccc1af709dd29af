#pragma once
// `jetperf results --where KEY=VALUE`: which result rows a table keeps.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "result_columns.hpp"

namespace jetperf::client {

/// All of its KEY=VALUE clauses must match a row. A cell matches when its table text (see
/// format_result_cell) equals VALUE, or when both are numbers of the same value, so m=256 and
/// gpu_freq_hz=1.3e9 match 256 and 1300000000.
class row_filter {
 public:
  /// Throws cli_error(exit_usage) for an item with no '=' or no key, or a key that is not one of
  /// `columns` (the message lists them).
  row_filter(const std::vector<std::string>& items, const std::vector<result_column>& columns);

  bool matches(const nlohmann::json& row) const;
  /// Whether a clause names `key` (a --where on status shows skipped points as rows).
  bool constrains(const std::string& key) const;
  bool empty() const { return clauses_.empty(); }

 private:
  struct clause {
    std::string key;
    std::string value;
  };
  std::vector<clause> clauses_;
};

}  // namespace jetperf::client
