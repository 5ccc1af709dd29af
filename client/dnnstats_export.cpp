#include "dnnstats_export.hpp"

#include <cctype>

namespace jetperf::client {

bool dnnstats_by_setting(const nlohmann::ordered_json& doc) {
  if (!doc.is_object() || doc.empty()) return false;
  const auto& first = doc.begin().value();  // a network's devices, or a setting's networks
  if (!first.is_object() || first.empty()) return false;
  const auto& second = first.begin().value();  // a device's figures, or a network's devices
  return !(second.is_object() && second.contains("power"));
}

std::string file_name_of(const std::string& label) {
  std::string out;
  for (unsigned char c : label)
    out += std::isalnum(c) || c == '.' || c == '_' || c == '=' || c == '-' ? static_cast<char>(c) : '_';
  return out.empty() ? "setting" : out;
}

std::vector<std::pair<std::string, std::string>> dnnstats_files(const nlohmann::ordered_json& doc,
                                                                const std::string& stem) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [label, networks] : doc.items())
    out.emplace_back(stem + "-" + file_name_of(label) + ".dnnstats.json", networks.dump(2) + "\n");
  return out;
}

}  // namespace jetperf::client
