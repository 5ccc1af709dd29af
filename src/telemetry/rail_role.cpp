#include <jetperf/telemetry/rail_role.hpp>

#include <utility>

namespace jetperf::telemetry {
namespace {

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string rail_role(const std::string& rail_name) {
  // Names the boards print (shared/jetson/README.md 6.2, PROVENANCE.md); exact before heuristics
  // because VIN_SYS_5V0 (Orin, Thor) is a 5 V system rail, not the input.
  static const std::pair<const char*, const char*> exact[] = {
      {"VDD_IN", "total"},      {"POM_5V_IN", "total"},   {"VIN", "total"},
      {"VIN_SYS_5V0", "io"},    {"SYS5V", "io"},          {"VDD_4V0_WIFI", "io"},
      {"VDDRQ", "ddr"},         {"VDDQ_VDD2_1V8AO", "ddr"}, {"VDD_SYS_DDR", "ddr"},
      {"CV", "cv"}};
  for (const auto& [name, role] : exact)
    if (rail_name == name) return role;
  // The first domain a name lists decides: VDD_GPU_SOC is gpu, VDD_CPU_SOC_MSS cpu.
  const std::pair<const char*, const char*> order[] = {{"GPU", "gpu"}, {"CPU", "cpu"}, {"SOC", "soc"},
                                                       {"DDR", "ddr"}, {"CV", "cv"}};
  std::size_t best = std::string::npos;
  std::string role = "other";
  for (const auto& [part, r] : order) {
    const auto at = rail_name.find(part);
    if (at != std::string::npos && at < best) {
      best = at;
      role = r;
    }
  }
  if (best != std::string::npos) return role;
  if (ends_with(rail_name, "_IN")) return "total";
  if (has(rail_name, "5V") || has(rail_name, "WIFI") || has(rail_name, "SYS")) return "io";
  return "other";
}

}  // namespace jetperf::telemetry
