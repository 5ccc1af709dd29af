#include <jetperf/kinds/layers/user_networks.hpp>

namespace jetperf::kinds {

user_networks user_networks::from_list(nlohmann::json list) {
  user_networks out;
  if (!list.is_array()) return out;
  out.list_ = std::move(list);
  for (std::size_t i = 0; i < out.list_.size(); ++i) {
    const auto& n = out.list_[i];
    if (!n.is_object()) continue;
    const auto name = n.find("name");
    if (name != n.end() && name->is_string()) out.by_name_.emplace(name->get<std::string>(), i);  // the first keeps it
  }
  return out;
}

user_networks user_networks::of_spec(const nlohmann::json& spec) {
  const auto it = spec.find("networks");
  return it == spec.end() ? user_networks() : from_list(*it);
}

const nlohmann::json* user_networks::find(const std::string& name, std::size_t* position) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return nullptr;
  if (position) *position = it->second;
  return &list_[it->second];
}

}  // namespace jetperf::kinds
