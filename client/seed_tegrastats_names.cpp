#include "seed_tegrastats_names.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace jetperf::client {
namespace {

struct seed_keys {
  std::map<std::string, std::string> zones;  ///< tegrastats_zone_name -> the seed's key
  std::map<std::string, std::string> rails;  ///< rail name -> the seed's key
};

// multi_network_stats/postProcessMultinetDB.py's params lists, each entry from the tegrastats
// field its extractor read (docs/results.md, "multi_dnn").
const seed_keys* keys_of(const std::string& device) {
  static const std::map<std::string, seed_keys> table{
      {"Tx2",
       {{{"pll", "PLL"},
         {"mcpu", "MCPU"},
         {"bcpu", "BCPU"},
         {"thermal", "Thermal"},
         {"thermal-fan-est", "Thermal"},
         {"tboard", "Tboard"},
         {"gpu", "GPU"},
         {"tdiode", "Tdiode"},
         {"pmic", "PMIC"}},
        {{"VDD_SYS_GPU", "VDD_SYS_GPU"},
         {"VDD_SYS_SOC", "VDD_SYS_SOC"},
         {"VDD_4V0_WIFI", "VDD_4V0_WIFI"},
         {"VDD_IN", "VDD_IN"},
         {"VDD_SYS_CPU", "VDD_SYS_CPU"},
         {"VDD_SYS_DDR", "VDD_SYS_DDR"}}}},
      {"Xavier",
       {{{"aux", "Aux Temperature"},
         {"cpu", "CPU Temperature"},
         {"thermal", "Thermal sensor"},
         {"tboard", "Tboard Temperature"},
         {"ao", "AO Temperature"},
         {"gpu", "GPU Temperature"},
         {"tdiode", "Tdiode Temperature"},
         {"pmic", "PMIC Temperature"}},
        {{"GPU", "GPU Power"},
         {"CPU", "CPU Power"},
         {"SOC", "SOC Power"},
         {"CV", "CV Power"},
         {"VDDRQ", "VDDRQ Power"},
         {"SYS5V", "SYS5V Power"}}}},
      {"Orin",
       {{{"cpu", "CPU Temperature"},
         {"soc2", "SOC 2 Temperature"},
         {"soc0", "SOC 0 Temperature"},
         {"gpu", "GPU Temperature"},
         {"tj", "Tjunction Temperature"},
         {"soc1", "SOC 1 Temperature"}},
        {{"VDD_IN", "IN Power"}, {"VDD_CPU_GPU_CV", "GPU CPU CV Power"}, {"VDD_SOC", "SOC Power"}}}},
  };
  const auto it = table.find(device);
  return it == table.end() ? nullptr : &it->second;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The seed's key for `key`, or `key`.
std::string seed_key(const seed_keys& keys, const std::string& key) {
  static const std::string temperature = " Temperature", power = " Power";
  if (ends_with(key, temperature)) {
    const auto it = keys.zones.find(tegrastats_zone_name(key.substr(0, key.size() - temperature.size())));
    if (it != keys.zones.end()) return it->second;
  } else if (ends_with(key, power)) {
    const auto it = keys.rails.find(key.substr(0, key.size() - power.size()));
    if (it != keys.rails.end()) return it->second;
  }
  return key;
}

}  // namespace

std::string tegrastats_zone_name(std::string zone) {
  for (const char* suffix : {"-thermal", "-therm", "_tegra", "-Die"})
    if (ends_with(zone, suffix) && zone.size() > std::char_traits<char>::length(suffix)) {
      zone.resize(zone.size() - std::char_traits<char>::length(suffix));
      break;
    }
  std::transform(zone.begin(), zone.end(), zone.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return zone;
}

nlohmann::ordered_json seed_tegrastats(const nlohmann::ordered_json& tegrastats, const std::string& device) {
  const auto* keys = keys_of(device);
  if (!keys || !tegrastats.is_object()) return tegrastats;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [key, value] : tegrastats.items()) {
    const auto renamed = seed_key(*keys, key);
    // A second zone that shortens to the same name (TX2's "thermal" and "thermal-fan-est") keeps
    // its own key rather than overwrite the first.
    out[out.contains(renamed) ? key : renamed] = value;
  }
  return out;
}

}  // namespace jetperf::client
