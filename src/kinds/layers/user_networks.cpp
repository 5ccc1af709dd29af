#include <jetperf/kinds/layers/user_networks.hpp>

#include <jetperf/models/network_cell.hpp>

namespace jetperf::kinds {

user_networks user_networks::from_list(cell list) {
  user_networks out;
  if (!list.is_list()) return out;
  out.list_ = std::move(list);
  const auto& items = out.list_.as_list();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_record()) continue;
    const auto* name = items[i].as_record().find("name");
    if (name && name->is_string()) out.by_name_.emplace(name->as_string(), i);  // the first keeps it
  }
  return out;
}

user_networks user_networks::of_spec(const record& spec) {
  const auto* list = spec.find("networks");
  return list ? from_list(*list) : user_networks();
}

std::optional<std::size_t> user_networks::position_of(const std::string& name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

models::network user_networks::network(std::size_t position, const std::string& field_prefix) const {
  return models::network_from_cell(list_.as_list().at(position), field_prefix);
}

}  // namespace jetperf::kinds
