#pragma once
// The user networks of a layers spec (spec.networks) by name, indexed once: a 1 MiB spec holds
// some 16 000 small networks, and looking each one up by scanning the list made normalizing,
// expanding and estimating a spec quadratic in their number. The index holds the list itself
// (user network files are a JSON format, proto/network.schema.json): a spec that carries it can
// be copied and moved without the index pointing into another spec.
#include <cstddef>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace jetperf::kinds {

class user_networks {
 public:
  /// None.
  user_networks() = default;
  /// `list` (spec.networks as given) indexed by name: each object with a string name; anything
  /// but an array indexes nothing and holds []. Where two networks share a name the first one
  /// counts (parsing refuses the second).
  static user_networks from_list(nlohmann::json list);
  /// Those of spec["networks"].
  static user_networks of_spec(const nlohmann::json& spec);

  /// The network named `name` and its position in the list; nullptr when none has the name.
  const nlohmann::json* find(const std::string& name, std::size_t* position = nullptr) const;
  bool contains(const std::string& name) const { return by_name_.count(name) > 0; }
  /// The list as given (what the stored spec's `networks` holds).
  const nlohmann::json& list() const { return list_; }

 private:
  nlohmann::json list_ = nlohmann::json::array();
  std::unordered_map<std::string, std::size_t> by_name_;
};

}  // namespace jetperf::kinds
