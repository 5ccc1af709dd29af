#pragma once
// `jetperf results ID --format dnnstats -o DIR/`: seed 001's processed layer-wise layout
// (network -> device -> power/latency -> layer index), which the daemon nests under each board
// setting's label when the job sweeps several. The seed's loops read one setting per file (its
// processData.py wrote one file per mode): the client writes them so. Pure: the command writes.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// Whether the layout is nested under settings (its second level is not a device's figures).
bool dnnstats_by_setting(const nlohmann::ordered_json& doc);

/// One file per setting of a nested layout: "<stem>-<setting>.dnnstats.json" (the label made a
/// file name) and its text, the seed's layout for that setting alone; in the layout's order.
std::vector<std::pair<std::string, std::string>> dnnstats_files(const nlohmann::ordered_json& doc,
                                                                const std::string& stem);

/// A setting's label as a file name: letters, digits, '.', '_', '=' and '-' kept, the rest '_'.
std::string file_name_of(const std::string& label);

}  // namespace jetperf::client
