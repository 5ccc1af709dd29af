#pragma once
// What a power rail measures, normalised across boards (TX2 VDD_SYS_GPU, Orin VDD_GPU_SOC, Thor
// VDD_GPU are all "gpu"), so a fleet dashboard can sum `total` across families. From the rail's
// name alone: the same name means the same thing in sysfs, tegrastats and stored channels.
#include <string>

namespace jetperf::telemetry {

/// "total" (the board's or module's input: VDD_IN, POM_5V_IN, Thor's INA238 VIN), "gpu", "cpu",
/// "soc", "cv", "ddr", "io" (5 V system, WiFi), or "other". A rail feeding several domains takes
/// its first one's role (VDD_GPU_SOC: gpu; VDD_CPU_CV, VDD_CPU_GPU_CV, VDD_CPU_SOC_MSS: cpu).
std::string rail_role(const std::string& rail_name);

}  // namespace jetperf::telemetry
