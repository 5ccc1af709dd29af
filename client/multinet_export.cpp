#include "multinet_export.hpp"

#include <filesystem>

#include "command.hpp"
#include "seed_tegrastats_names.hpp"

namespace jetperf::client {

std::string seed_device_name(const nlohmann::json& provenance) {
  const auto board = provenance.value("board", nlohmann::json::object());
  const auto model = board.value("model", board.value("name", std::string()));
  for (const auto& [word, name] : {std::pair<const char*, const char*>{"Orin", "Orin"},
                                   {"Xavier", "Xavier"},
                                   {"TX2", "Tx2"},
                                   {"Nano", "Nano"}})
    if (model.find(word) != std::string::npos) return name;
  return model;
}

nlohmann::ordered_json multinet_documents(nlohmann::ordered_json exported) {
  const auto device = seed_device_name(nlohmann::json::parse(exported.value("provenance", nlohmann::ordered_json::object()).dump()));
  // The seed's key order (JSON objects arrive in name order), our mapping_id last.
  for (auto& doc : exported["mappings"]) {
    nlohmann::ordered_json seed;
    for (const char* key : {"mapping", "stageSummary", "samplingDuration", "Mode"}) seed[key] = doc.value(key, nlohmann::ordered_json());
    seed["Device"] = device;
    seed["Tegrastats"] = seed_tegrastats(doc.value("Tegrastats", nlohmann::ordered_json::object()), device);
    for (const char* key : {"ModelInfo", "mapping_id"}) seed[key] = doc.value(key, nlohmann::ordered_json());
    doc = std::move(seed);
  }
  return exported;
}

std::size_t write_multinet_files(const nlohmann::ordered_json& documents, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::size_t n = 0;
  for (const auto& doc : documents.value("mappings", nlohmann::ordered_json::array())) {
    const auto id = doc.value("mapping_id", std::int64_t{-1});
    write_text_file((fs::path(dir) / ("mapping-" + std::to_string(id) + ".json")).string(), doc.dump(4) + "\n");
    ++n;
  }
  write_text_file((fs::path(dir) / "provenance.json").string(),
                  documents.value("provenance", nlohmann::ordered_json::object()).dump(2) + "\n");
  return n;
}

}  // namespace jetperf::client
