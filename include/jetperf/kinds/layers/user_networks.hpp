#pragma once
// The user networks of a layers spec (spec.networks) by name, indexed once: a 1 MiB spec holds
// some 16 000 small networks, and looking each one up by scanning the list made normalizing,
// expanding and estimating a spec quadratic in their number.
#include <cstddef>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace jetperf::kinds {

class user_networks {
 public:
  /// Indexes spec["networks"] when it is an array of objects; `spec` must outlive the index.
  /// Where two networks share a name the first one counts (normalizing refuses the second).
  explicit user_networks(const nlohmann::json& spec);

  /// The network named `name` and its position in spec.networks; nullptr when none has the name.
  const nlohmann::json* find(const std::string& name, std::size_t* position = nullptr) const;
  bool contains(const std::string& name) const { return by_name_.count(name) > 0; }

 private:
  const nlohmann::json* list_ = nullptr;
  std::unordered_map<std::string, std::size_t> by_name_;
};

}  // namespace jetperf::kinds
