// The multinet files' Tegrastats keys are seed 001's for each board it knew: its post-processing
// (multi_network_stats/postProcessMultinetDB.py) indexes exactly these lists, so every
// temperature and rail of its list that the board has must be there under that name.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "seed_tegrastats_names.hpp"

namespace jetperf::client {
namespace {

using nlohmann::ordered_json;

// The temperatures and rails of the seed's params lists (the rest: RAM, SWAP, CPU, EMC_FREQ,
// GR3D_FREQ, engines).
const std::vector<std::string> seed_tx2 = {"PLL", "MCPU", "PMIC", "Tboard", "GPU", "BCPU", "Thermal", "Tdiode",
                                           "VDD_SYS_GPU", "VDD_SYS_SOC", "VDD_4V0_WIFI", "VDD_IN", "VDD_SYS_CPU",
                                           "VDD_SYS_DDR"};
const std::vector<std::string> seed_xavier = {"Aux Temperature", "CPU Temperature", "Thermal sensor",
                                              "Tboard Temperature", "AO Temperature", "GPU Temperature",
                                              "Tdiode Temperature", "PMIC Temperature", "GPU Power", "CPU Power",
                                              "SOC Power", "CV Power", "VDDRQ Power", "SYS5V Power"};
const std::vector<std::string> seed_orin = {"CPU Temperature", "SOC 2 Temperature", "SOC 0 Temperature",
                                            "GPU Temperature", "Tjunction Temperature", "SOC 1 Temperature",
                                            "IN Power", "GPU CPU CV Power", "SOC Power"};

// The daemon's aggregates for zones and rails as the board names them, RAM first.
ordered_json aggregates(const std::vector<std::string>& zones, const std::vector<std::string>& rails) {
  ordered_json t = {{"RAM", 2459.97}};
  double v = 40;
  for (const auto& z : zones) t[z + " Temperature"] = v++;
  for (const auto& r : rails) t[r + " Power"] = 1000 * v++;
  return t;
}

std::set<std::string> keys(const ordered_json& t) {
  std::set<std::string> out;
  for (const auto& [k, v] : t.items()) out.insert(k);
  return out;
}

void expect_all_of(const ordered_json& t, const std::vector<std::string>& seed) {
  const auto have = keys(t);
  for (const auto& k : seed) EXPECT_TRUE(have.count(k)) << "no \"" << k << "\" in " << t.dump();
}

TEST(seed_tegrastats_names, tx2s_zones_as_the_driver_names_them_become_the_seeds_bare_names) {
  // L4T r32's thermal zone types; tegrastats prints them BCPU@, thermal@, Tboard@ ...
  const auto t = seed_tegrastats(aggregates({"BCPU-therm", "MCPU-therm", "GPU-therm", "PLL-therm", "Tboard_tegra",
                                             "Tdiode_tegra", "PMIC-Die", "thermal-fan-est"},
                                            {"VDD_SYS_GPU", "VDD_SYS_SOC", "VDD_4V0_WIFI", "VDD_IN", "VDD_SYS_CPU",
                                             "VDD_SYS_DDR"}),
                                 "Tx2");
  expect_all_of(t, seed_tx2);
  EXPECT_EQ(t["BCPU"], 40);  // the value moves with its key
  EXPECT_EQ(t.begin().key(), "RAM");
  EXPECT_EQ(t.size(), 1u + seed_tx2.size());
}

TEST(seed_tegrastats_names, xavier_and_orin_get_the_seeds_spelled_out_names) {
  const auto xavier = seed_tegrastats(
      aggregates({"AUX", "CPU", "thermal", "Tboard", "AO", "GPU", "Tdiode", "PMIC"}, {"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"}),
      "Xavier");
  expect_all_of(xavier, seed_xavier);
  // JetPack 5's lower-case zones and JetPack 6's "-thermal" ones alike.
  const auto orin = seed_tegrastats(aggregates({"cpu", "soc2", "soc0", "gpu-thermal", "tj-thermal", "SOC1"},
                                               {"VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC"}),
                                    "Orin");
  expect_all_of(orin, seed_orin);
  EXPECT_EQ(orin["Tjunction Temperature"], 44);
  EXPECT_EQ(orin["GPU CPU CV Power"], 47000);
}

TEST(seed_tegrastats_names, what_the_seed_never_named_keeps_jetperfs_name) {
  // AGX Orin's rails are not in the seed's Orin list; a board it never ran keeps every name.
  const auto orin = seed_tegrastats(aggregates({"CPU", "CV0"}, {"VDD_GPU_SOC"}), "Orin");
  EXPECT_EQ(keys(orin), (std::set<std::string>{"RAM", "CPU Temperature", "CV0 Temperature", "VDD_GPU_SOC Power"}));
  const auto thor_input = aggregates({"cpu-thermal"}, {"VIN"});
  EXPECT_EQ(seed_tegrastats(thor_input, "Jetson AGX Thor"), thor_input);
}

TEST(seed_tegrastats_names, zone_names_compare_as_tegrastats_prints_them) {
  EXPECT_EQ(tegrastats_zone_name("BCPU-therm"), "bcpu");
  EXPECT_EQ(tegrastats_zone_name("cpu-thermal"), "cpu");
  EXPECT_EQ(tegrastats_zone_name("Tboard_tegra"), "tboard");
  EXPECT_EQ(tegrastats_zone_name("PMIC-Die"), "pmic");
  EXPECT_EQ(tegrastats_zone_name("SOC2"), "soc2");
  EXPECT_EQ(tegrastats_zone_name("-therm"), "-therm");  // nothing left: not a suffix
}

}  // namespace
}  // namespace jetperf::client
