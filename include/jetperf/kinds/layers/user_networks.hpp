#pragma once
// The user networks of a layers spec (spec.networks) by name, indexed once: a 1 MiB spec holds
// some 16 000 small networks, and looking each one up by scanning the list made normalizing,
// expanding and estimating a spec quadratic in their number. The index holds the list itself,
// as given: a spec that carries it can be copied and moved without the index pointing into
// another spec. A network is read from its file format (proto/network.schema.json, a JSON
// format: models/network_json) only when it is asked for.
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>

#include <jetperf/common/cell.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

class user_networks {
 public:
  /// None.
  user_networks() = default;
  /// `list` (spec.networks as given) indexed by name: each record with a string name; anything
  /// but a list indexes nothing and holds []. Where two networks share a name the first one
  /// counts (parsing refuses the second).
  static user_networks from_list(cell list);
  /// Those of spec["networks"].
  static user_networks of_spec(const record& spec);

  /// The position in the list of the network named `name`; nullopt when none has the name.
  std::optional<std::size_t> position_of(const std::string& name) const;
  bool contains(const std::string& name) const { return by_name_.count(name) > 0; }
  /// How many entries the list holds.
  std::size_t size() const { return list_.as_list().size(); }
  /// The entry at `position` read as a network (models::network_from_json: its refusals name
  /// `field_prefix`, e.g. "spec.networks[3]").
  models::network network(std::size_t position, const std::string& field_prefix) const;
  /// The list as given (what the stored spec's `networks` holds).
  const cell& list() const { return list_; }

 private:
  cell list_ = cell_list();
  std::unordered_map<std::string, std::size_t> by_name_;
};

}  // namespace jetperf::kinds
