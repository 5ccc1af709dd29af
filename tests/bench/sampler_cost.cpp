// CPU cost and timing of the sampler at 1 kHz over an AGX-Orin-like tree: 6 hwmon rails on two
// INA3221 chips (plus NC and in7 channels), GPU clock + load, EMC, 12 CPU clocks, 10 thermal zones.
// The rails' currents are read at every tick, their bus voltages when the current changed (rail_sensor.hpp).
// A first case with no sensor at all measures the floor of a tick on this machine (wake-up and
// bookkeeping). Prints one JSON object; target (issue "Hardening" 13): <= 1% of one core for the
// rails at 1 kHz. Usage: bench_sampler_cost [seconds] [period_us]
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/clock_sensor.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/rail_sensor.hpp>
#include <jetperf/telemetry/sampler.hpp>
#include <jetperf/telemetry/thermal_sensor.hpp>
#include <support/temp_dir.hpp>

namespace fs = std::filesystem;
using jetperf::test::write_file;

static void build_tree(const std::string& root) {
  const char* labels[2][4] = {{"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "NC"},
                              {"VDDQ_VDD2_1V8AO", "VDD_SYS_A", "VDD_SYS_B", "NC"}};
  for (int chip = 0; chip < 2; ++chip) {
    std::string dev = root + "/sys/bus/i2c/devices/1-004" + std::to_string(chip);
    write_file(dev + "/name", "ina3221\n");
    std::string h = dev + "/hwmon/hwmon" + std::to_string(3 + chip);
    for (int k = 1; k <= 3; ++k) {
      std::string K = std::to_string(k);
      write_file(h + "/in" + K + "_label", std::string(labels[chip][k - 1]) + "\n");
      write_file(h + "/in" + K + "_input", "5000\n");
      write_file(h + "/curr" + K + "_input", std::to_string(100 * k + chip) + "\n");
    }
    write_file(h + "/in7_label", "sum of shunt voltages\n");
    write_file(h + "/in7_input", "100\n");
  }
  std::string gpu = root + "/sys/devices/platform/17000000.gpu";
  write_file(gpu + "/of_node/name", "gpu");
  write_file(gpu + "/load", "250\n");
  write_file(gpu + "/devfreq_dev/cur_freq", "918000000\n");
  fs::create_directories(root + "/sys/class/devfreq");
  fs::create_directory_symlink("../../devices/platform/17000000.gpu/devfreq_dev", root + "/sys/class/devfreq/17000000.gpu");
  fs::create_directory_symlink("..", gpu + "/devfreq_dev/device");
  write_file(root + "/sys/kernel/debug/bpmp/debug/clk/emc/rate", "2133000000\n");
  for (int c = 0; c < 12; ++c) {
    write_file(root + "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/cpufreq/scaling_cur_freq", "729600\n");
  }
  const char* zones[] = {"cpu-thermal", "gpu-thermal", "cv0-thermal", "cv1-thermal", "cv2-thermal",
                         "soc0-thermal", "soc1-thermal", "soc2-thermal", "tj-thermal", "Tboard_tegra"};
  for (int z = 0; z < 10; ++z) {
    std::string d = root + "/sys/devices/virtual/thermal/thermal_zone" + std::to_string(z);
    write_file(d + "/type", std::string(zones[z]) + "\n");
    write_file(d + "/temp", z >= 2 && z <= 4 ? "-256000\n" : "44343\n");
  }
}

// A channel that reads nothing: what a tick costs without any sensor (the wake-up, the clock, the
// bookkeeping), the floor under every other case on this machine.
class constant_sensor final : public jetperf::telemetry::sensor {
 public:
  std::vector<jetperf::telemetry::channel_info> channels() const override {
    return {{"power.total", "W", jetperf::telemetry::channel_kind::power, "constant"}};
  }
  void read(std::int64_t, double* values) override { values[0] = 1.0; }
};

// One sampler run; clock/thermal intervals < 0 leave that sensor out; without rails, the floor.
static nlohmann::json run_case(const std::string& name, const jetperf::platform::sysfs_root& root, double seconds,
                               long period_us, std::int64_t clock_interval_ns, std::int64_t thermal_interval_ns,
                               bool with_rails = true) {
  using namespace jetperf::telemetry;
  std::vector<std::unique_ptr<sensor>> sensors;
  auto rails = discover_rails(root);
  std::size_t rail_count = with_rails ? rails.size() : 0;
  if (with_rails)
    sensors.push_back(std::make_unique<rail_sensor>(root, std::move(rails)));
  else
    sensors.push_back(std::make_unique<constant_sensor>());
  if (clock_interval_ns >= 0) sensors.push_back(std::make_unique<clock_sensor>(root, std::nullopt, clock_interval_ns));
  if (thermal_interval_ns >= 0) sensors.push_back(std::make_unique<thermal_sensor>(root, true, thermal_interval_ns));
  sampler_config cfg;
  cfg.period_ns = period_us * 1000;
  cfg.ring_capacity = 1u << 22;
  sampler s(std::move(sensors), cfg);
  std::size_t sunk = 0;
  s.set_sink([&](std::int64_t, const std::vector<sample>& b) { sunk += b.size(); });
  s.set_job(1);  // full-rate samples to the sink, as during a job
  s.start();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  auto live = s.health();
  s.stop();
  auto h = s.health();
  return {{"case", name},
          {"rails", rail_count},
          {"channels", s.channels().size()},
          {"clock_interval_ms", clock_interval_ns / 1e6},
          {"thermal_interval_ms", thermal_interval_ns / 1e6},
          {"ticks", h.ticks},
          {"achieved_rate_hz", h.achieved_rate_hz},
          {"missed_ticks", h.missed_ticks},
          {"jitter_mean_us", live.jitter_mean_s * 1e6},
          {"jitter_p50_us", live.jitter_p50_s * 1e6},
          {"jitter_p99_us", live.jitter_p99_s * 1e6},
          {"thread_cpu_s", h.cpu_time_s},
          {"cpu_share_of_one_core", h.cpu_share},
          {"cpu_us_per_tick", h.ticks ? h.cpu_time_s * 1e6 / static_cast<double>(h.ticks) : 0.0},
          {"samples", h.samples},
          {"samples_to_sink", sunk},
          {"meets_target", h.cpu_share <= 0.01}};
}

int main(int argc, char** argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  long period_us = argc > 2 ? std::atol(argv[2]) : 1000;
  jetperf::test::temp_dir dir;
  build_tree(dir.path());
  jetperf::platform::sysfs_root root(dir.path());
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back(run_case("floor_no_sensor", root, seconds, period_us, -1, -1, false));
  cases.push_back(run_case("rails_only", root, seconds, period_us, -1, -1));
  cases.push_back(run_case("all_channels_every_tick", root, seconds, period_us, 0, 0));
  cases.push_back(run_case("rails_every_tick_clocks_10ms_temps_100ms", root, seconds, period_us, 10'000'000, 100'000'000));
  nlohmann::json out = {{"benchmark", "sampler_cost"},
                        {"tree", "tmpfs fixture tree (AGX Orin-like hwmon: 6 rails, GPU/EMC/12 CPU clocks, 10 zones)"},
                        {"period_us", period_us},
                        {"seconds_per_case", seconds},
                        {"target_cpu_share", 0.01},
                        {"cases", cases}};
  std::cout << out.dump() << std::endl;
  return 0;
}
