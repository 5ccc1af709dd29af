#include <jetperf/jobs/swept_parameters.hpp>

#include <algorithm>

namespace jetperf::jobs {

std::vector<std::string> swept_parameters(const std::vector<point_row>& rows) {
  std::vector<std::string> keys;
  for (const auto& r : rows)
    for (const auto& [name, value] : r.params)
      if (std::find(keys.begin(), keys.end(), name) == keys.end()) keys.push_back(name);
  std::vector<std::string> swept;
  for (const auto& key : keys) {
    const cell* first = nullptr;
    for (const auto& r : rows) {
      const auto* v = r.params.find(key);
      if (!v || v->is_null()) continue;
      if (!first) {
        first = v;
      } else if (!(*v == *first)) {
        swept.push_back(key);
        break;
      }
    }
  }
  return swept;
}

}  // namespace jetperf::jobs
