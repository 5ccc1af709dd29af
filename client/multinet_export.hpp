#pragma once
// `jetperf results ID --format multinet`: seed 001's processed multi-DNN layout, one document per
// mapping, as the seed's postProcessMultinetDB.py wrote them, so its users' analysis keeps
// working. The daemon builds the documents; the client names the board the seed's way and
// writes one file per mapping.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// The seed's "Device" for a board's provenance: "Orin", "Xavier", "Tx2", "Nano" (the model's
/// family word), else the model as the board gives it.
std::string seed_device_name(const nlohmann::json& provenance);

/// The daemon's {"mappings": [...], "provenance"} with each document's Device filled in and its
/// Tegrastats keys the seed's for that device (seed_tegrastats_names.hpp).
nlohmann::ordered_json multinet_documents(nlohmann::ordered_json exported);

/// Writes DIR/mapping-<id>.json per document and DIR/provenance.json; returns how many mappings.
std::size_t write_multinet_files(const nlohmann::ordered_json& documents, const std::string& dir);

}  // namespace jetperf::client
