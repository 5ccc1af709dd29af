#include <jetperf/kinds/multi_dnn/mapping.hpp>

#include <algorithm>

#include <jetperf/common/errors.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

// "22" -> 22; -1 for anything but a decimal integer without sign or leading zero (so that "5"
// and "05" cannot name one split twice).
int split_index(const std::string& key) {
  if (key.empty() || key.size() > 6 || (key.size() > 1 && key[0] == '0')) return -1;
  int v = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string devices_text(const std::vector<std::string>& devices) {
  std::string s;
  for (const auto& d : devices) s += (s.empty() ? "" : ", ") + d;
  return s;
}

network_mapping parse_network(const std::string& name, const json& stages, const mapping_rules& rules,
                              const std::string& field) {
  const auto blocks = rules.blocks.find(name);
  if (blocks == rules.blocks.end())
    throw validation_error(field, "unknown network '" + name + "' (GET /v1/models lists the zoo)", "unknown_model");
  if (!stages.is_object() || stages.empty())
    throw validation_error(field, name + " must map split indices to devices, e.g. {\"" +
                                      std::to_string(blocks->second) + "\": \"cpu\"}");
  network_mapping n;
  n.network = name;
  for (auto it = stages.begin(); it != stages.end(); ++it) {
    const auto at = field + "." + it.key();
    const int index = split_index(it.key());
    if (index < 1 || index > blocks->second)
      throw validation_error(at, name + " has " + std::to_string(blocks->second) + " blocks: a split index is 1.." +
                                     std::to_string(blocks->second) + ", got '" + it.key() + "'",
                             "out_of_range");
    if (!it->is_string())
      throw validation_error(at, "the device of " + name + "'s stage " + it.key() + " must be a string, got " + it->dump());
    const auto device = it->get<std::string>();
    if (std::find(rules.devices.begin(), rules.devices.end(), device) == rules.devices.end()) {
      if (device == "cuda")
        throw validation_error(at, name + "'s stage " + it.key() + " asks for cuda: " + rules.missing_cuda, "unsupported");
      throw validation_error(at, "device must be one of " + devices_text(rules.devices) + ", got \"" + device + "\"");
    }
    n.stages.push_back({index, device});
  }
  std::sort(n.stages.begin(), n.stages.end(), [](const auto& a, const auto& b) { return a.split < b.split; });
  if (n.stages.back().split != blocks->second)
    throw validation_error(field + "." + std::to_string(n.stages.back().split),
                           name + "'s last stage ends at block " + std::to_string(n.stages.back().split) + " of " +
                               std::to_string(blocks->second) + ": map the rest too (its last index is " +
                               std::to_string(blocks->second) + ")",
                           "incomplete");
  const auto cuts = rules.cuts.find(name);
  for (std::size_t i = 1; i < n.stages.size(); ++i) {
    const auto& prev = n.stages[i - 1];
    const auto at = field + "." + std::to_string(prev.split);
    if (cuts != rules.cuts.end() &&
        !std::binary_search(cuts->second.begin(), cuts->second.end(), prev.split))
      throw validation_error(at, name + " cannot be split after block " + std::to_string(prev.split) +
                                     ": the blocks after it read more than the one tensor it leaves",
                             "unsupported");
  }
  return n;
}

}  // namespace

std::string mapping_class(const mapping& m) {
  if (m.networks.size() == 1) return "A";
  bool split = false, gpu_only = true;
  for (const auto& n : m.networks) {
    split = split || n.split();
    for (const auto& s : n.stages) gpu_only = gpu_only && s.device == "cuda";
  }
  if (gpu_only) return "B";
  return split ? "D" : "C";
}

mapping parse_mapping(const json& j, const mapping_rules& rules, const std::string& field) {
  if (!j.is_object())
    throw validation_error(field, "a mapping is an object {\"<network>\": {\"<split index>\": \"<device>\"}}, got " +
                                      j.dump().substr(0, 80));
  if (j.empty()) throw validation_error(field, "the mapping names no network", "empty");
  if (j.size() > k_max_mapping_networks)
    throw validation_error(field, "a mapping runs at most " + std::to_string(k_max_mapping_networks) +
                                      " networks at once, got " + std::to_string(j.size()),
                           "too_large");
  mapping m;
  for (auto it = j.begin(); it != j.end(); ++it) m.networks.push_back(parse_network(it.key(), *it, rules, field + "." + it.key()));
  return m;
}

nlohmann::ordered_json mapping_json(const mapping& m) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& n : m.networks) {
    nlohmann::ordered_json stages = nlohmann::ordered_json::object();
    for (const auto& s : n.stages) stages[std::to_string(s.split)] = s.device;
    out[n.network] = std::move(stages);
  }
  return out;
}

record mapping_record(const mapping& m) {
  record out;
  for (const auto& n : m.networks) {
    record stages;
    for (const auto& s : n.stages) stages.set(std::to_string(s.split), s.device);
    out.set(n.network, std::move(stages));
  }
  return out;
}

std::string mapping_key(const mapping& m) {
  std::string key;
  for (const auto& n : m.networks) {
    key += (key.empty() ? "" : ";") + n.network + ":";
    for (std::size_t i = 0; i < n.stages.size(); ++i)
      key += (i ? "," : "") + std::to_string(n.stages[i].split) + "=" + n.stages[i].device;
  }
  return key;
}

}  // namespace jetperf::kinds
