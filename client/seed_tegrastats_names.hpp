#pragma once
// The Tegrastats keys of seed 001's processed multi-DNN files, per seed device: its
// postProcessMultinetDB.py indexes each board's own list of names (its tegrastats regexes
// renamed, e.g. Orin's `tj@` as "Tjunction Temperature", `VDD_CPU_GPU_CV` as "GPU CPU CV Power";
// TX2's bare "BCPU" and "VDD_IN"), so a file with jetperf's generic "<zone> Temperature" and
// "<rail> Power" keys would break its users' loops. Names the seed never had stay as they are.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// A thermal zone's name as tegrastats prints it, lower case: the driver's suffixes ("-therm",
/// "-thermal", "_tegra", "-Die") dropped, so "BCPU-therm", "cpu-thermal" and "CPU" compare.
std::string tegrastats_zone_name(std::string zone);

/// `tegrastats` (the daemon's aggregates: "<zone> Temperature", "<rail> Power", ...) with each
/// temperature and rail the seed knew for `device` ("Tx2", "Xavier", "Orin") under the seed's
/// key, in the same order; any other key, and every key for another device, unchanged.
nlohmann::ordered_json seed_tegrastats(const nlohmann::ordered_json& tegrastats, const std::string& device);

}  // namespace jetperf::client
