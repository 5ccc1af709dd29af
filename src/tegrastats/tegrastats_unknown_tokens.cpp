#include <jetperf/tegrastats/tegrastats_unknown_tokens.hpp>

namespace jetperf::telemetry {

bool tegrastats_unknown_tokens::first_time(std::string_view name) {
  ++total_;
  name = name.substr(0, k_max_name_length);
  // A linear search: unknown fields are rare and the table is small.
  for (auto& entry : counts_) {
    if (entry.first == name) {
      ++entry.second;
      return false;
    }
  }
  if (counts_.size() >= capacity_) {
    ++untracked_;
    return false;
  }
  counts_.emplace_back(std::string(name), 1);
  return true;
}

}  // namespace jetperf::telemetry
