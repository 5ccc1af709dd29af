#include <jetperf/kinds/layers/user_networks.hpp>

namespace jetperf::kinds {

user_networks::user_networks(const nlohmann::json& spec) {
  const auto it = spec.find("networks");
  if (it == spec.end() || !it->is_array()) return;
  list_ = &*it;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto& n = (*it)[i];
    if (!n.is_object()) continue;
    const auto name = n.find("name");
    if (name != n.end() && name->is_string()) by_name_.emplace(name->get<std::string>(), i);  // the first keeps it
  }
}

const nlohmann::json* user_networks::find(const std::string& name, std::size_t* position) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return nullptr;
  if (position) *position = it->second;
  return &(*list_)[it->second];
}

}  // namespace jetperf::kinds
