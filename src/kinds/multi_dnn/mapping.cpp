#include <jetperf/kinds/multi_dnn/mapping.hpp>

#include <algorithm>

#include <jetperf/common/cell_text.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::kinds {

namespace {

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

network_mapping parse_network(const std::string& name, const cell& stages_value, const mapping_rules& rules,
                              const std::string& field) {
  const auto blocks = rules.blocks.find(name);
  if (blocks == rules.blocks.end())
    throw validation_error(field, "unknown network '" + name + "' (GET /v1/models lists the zoo)", "unknown_model");
  if (!stages_value.is_record() || stages_value.as_record().empty())
    throw validation_error(field, name + " must map split indices to devices, e.g. {\"" +
                                      std::to_string(blocks->second) + "\": \"cpu\"}");
  network_mapping n;
  n.network = name;
  for (const auto& [key, value] : stages_value.as_record()) {
    const auto at = field + "." + key;
    const int index = split_index(key);
    if (index < 1 || index > blocks->second)
      throw validation_error(at, name + " has " + std::to_string(blocks->second) + " blocks: a split index is 1.." +
                                     std::to_string(blocks->second) + ", got '" + key + "'",
                             "out_of_range");
    if (!value.is_string())
      throw validation_error(at, "the device of " + name + "'s stage " + key + " must be a string, got " + json_text(value));
    const auto& device = value.as_string();
    if (std::find(rules.devices.begin(), rules.devices.end(), device) == rules.devices.end()) {
      if (device == "cuda")
        throw validation_error(at, name + "'s stage " + key + " asks for cuda: " + rules.missing_cuda, "unsupported");
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

mapping parse_mapping(const cell& value, const mapping_rules& rules, const std::string& field) {
  if (!value.is_record())
    throw validation_error(field, "a mapping is an object {\"<network>\": {\"<split index>\": \"<device>\"}}, got " +
                                      json_text(value).substr(0, 80));
  const auto& j = value.as_record();
  if (j.empty()) throw validation_error(field, "the mapping names no network", "empty");
  if (j.size() > k_max_mapping_networks)
    throw validation_error(field, "a mapping runs at most " + std::to_string(k_max_mapping_networks) +
                                      " networks at once, got " + std::to_string(j.size()),
                           "too_large");
  mapping m;
  for (const auto& [name, stages] : j) m.networks.push_back(parse_network(name, stages, rules, field + "." + name));
  return m;
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

mapping mapping_of_record(const record& seed_form) {
  mapping m;
  for (const auto& [name, stages] : seed_form) {
    network_mapping n{name, {}};
    if (stages.is_record())
      for (const auto& [split, device] : stages.as_record()) n.stages.push_back({std::stoi(split), device.text().value_or("")});
    std::sort(n.stages.begin(), n.stages.end(), [](const auto& a, const auto& b) { return a.split < b.split; });
    m.networks.push_back(std::move(n));
  }
  // In name order, as a mapping holds them (and as JSON's objects always gave them back).
  std::sort(m.networks.begin(), m.networks.end(), [](const auto& a, const auto& b) { return a.network < b.network; });
  return m;
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
