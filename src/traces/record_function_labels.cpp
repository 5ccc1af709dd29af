#include <jetperf/traces/record_function_labels.hpp>

namespace jetperf::traces {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "AddmmBackward0", "MyFunctionBackward": an autograd node, which torch records under the name
// of its function (a Python autograd.Function's node has no number).
bool is_autograd_node(std::string_view name) {
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  static constexpr std::string_view k_backward = "Backward";
  if (end <= k_backward.size() || name.substr(end - k_backward.size(), k_backward.size()) != k_backward) return false;
  for (std::size_t i = 0; i < end; ++i) {
    const char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

bool is_label_name(std::string_view name, const std::vector<std::string>& markers) {
  for (const auto& m : markers)
    if (starts_with(name, m)) return true;
  if (name.find("::") != std::string_view::npos) return false;
  if (is_autograd_node(name) || starts_with(name, "CppNode<")) return false;
  return !name.empty();
}

std::size_t mark_legacy_labels(trace& t, const std::vector<std::string>& markers) {
  if (t.categorized) return 0;
  std::vector<bool> label(t.names.size());
  for (std::size_t i = 0; i < t.names.size(); ++i) label[i] = is_label_name(t.names[i], markers);
  std::size_t marked = 0;
  for (auto& e : t.events) {
    if (e.category != event_category::cpu_op || !label[e.name]) continue;
    e.category = event_category::user_annotation;
    ++marked;
  }
  return marked;
}

}  // namespace jetperf::traces
