#include <jetperf/backend/kernel_trace.hpp>

#include <algorithm>
#include <stdexcept>

namespace jetperf::workloads {

std::vector<std::string> distinct_kernel_names(const kernel_trace& trace) {
  std::vector<std::string> names;
  for (const auto& k : trace.kernels)
    if (std::find(names.begin(), names.end(), k.name) == names.end()) names.push_back(k.name);
  if (names.empty()) names.push_back("unknown");
  return names;
}

clock_offset offset_from_brackets(const std::vector<clock_bracket>& brackets) {
  if (brackets.empty()) throw std::invalid_argument("offset_from_brackets: no clock reads");
  const auto best = std::min_element(brackets.begin(), brackets.end(), [](const auto& a, const auto& b) {
    return a.after_ns - a.before_ns < b.after_ns - b.before_ns;
  });
  const std::int64_t half = (best->after_ns - best->before_ns) / 2;
  return {best->before_ns + half - best->other_ns, half};
}

}  // namespace jetperf::workloads
