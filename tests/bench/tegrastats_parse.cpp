// Parser throughput over a mix of the fixture lines and the other README 7.1 forms, repeated.
// Prints one JSON object; target >= 1 M lines/s.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <time.h>

#include <nlohmann/json.hpp>

#include <jetperf/telemetry/tegrastats_parser.hpp>
#include <support/test_paths.hpp>

// Process CPU seconds: on a shared, oversubscribed machine wall time mostly measures the queue.
static double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

int main(int argc, char** argv) {
  using namespace jetperf::telemetry;
  std::size_t total_lines = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  std::vector<std::string> mix = {
      "RAM 1601/7854MB (lfb 1304x4MB) CPU [0%@2035,off,off,3%@2035,0%@2035,0%@2035] EMC_FREQ 0%@1866 "
      "GR3D_FREQ 0%@1300 APE 150 MTS fg 0% bg 2% BCPU@35C MCPU@35C GPU@33C PLL@35C Tboard@31C Tdiode@32.25C "
      "PMIC@100C thermal@34.2C VDD_IN 2152/2152 VDD_CPU 230/230 VDD_GPU 76/76 VDD_SOC 460/460 VDD_WIFI 0/0 VDD_DDR 172/172",
      "11-21-2025 10:00:00 RAM 3000/62000MB (lfb 10x4MB) SWAP 0/31000MB (cached 0MB) CPU [1%@1728,2%@1728,off,off] "
      "EMC_FREQ 1%@3199 GR3D_FREQ 12%@[1300,1300] NVENC0 off NVDEC0 off NVJPG0 off VIC off OFA off cpu@45.5/46.1C "
      "soc0@40.2/41C gpu@-256/-256C VDD_GPU_SOC 2340mW/2300mW/4000mW VDD_CPU_CV 390mW/380mW/900mW"};
  std::size_t fixture_lines = 0;
  if (std::filesystem::exists(jetperf::test::fixtures_dir())) {
    for (const auto& e : std::filesystem::directory_iterator(jetperf::test::fixtures_dir())) {
      if (e.path().filename().string().rfind("tegrastats_", 0) != 0) continue;
      std::ifstream in(e.path());
      std::string line;
      while (std::getline(in, line)) {
        if (!line.empty()) {
          mix.push_back(line);
          ++fixture_lines;
        }
      }
    }
  }
  std::size_t bytes = 0;
  for (const auto& l : mix) bytes += l.size();

  // Line API, as the tegrastats sensor uses it.
  tegrastats_record r;
  std::string error;
  std::size_t ok = 0, failed = 0;
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_now();
  for (std::size_t i = 0; i < total_lines; ++i) {
    if (try_parse_tegrastats_line(mix[i % mix.size()], r, error)) ++ok;
    else ++failed;
  }
  double line_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double line_cpu_s = cpu_now() - c0;

  // Stream API (file import), including getline and record storage.
  std::string text;
  std::size_t stream_lines = total_lines / 4;
  for (std::size_t i = 0; i < stream_lines; ++i) text += mix[i % mix.size()] + "\n";
  std::istringstream in(text);
  auto t1 = std::chrono::steady_clock::now();
  auto result = parse_tegrastats_stream(in);
  double stream_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();

  nlohmann::json out = {
      {"benchmark", "tegrastats_parse"},
      {"distinct_lines", mix.size()},
      {"fixture_lines", fixture_lines},
      {"mean_line_bytes", static_cast<double>(bytes) / static_cast<double>(mix.size())},
      {"lines", total_lines},
      {"parsed", ok},
      {"errors", failed},
      {"lines_per_s", static_cast<double>(total_lines) / line_s},
      {"lines_per_cpu_s", static_cast<double>(total_lines) / line_cpu_s},
      {"stream_lines", stream_lines},
      {"stream_errors", result.errors.size()},
      {"stream_lines_per_s", static_cast<double>(stream_lines) / stream_s},
      {"target_lines_per_s", 1e6},
      {"meets_target", static_cast<double>(total_lines) / line_s >= 1e6}};
  std::cout << out.dump() << std::endl;
  return failed == 0 && result.errors.empty() ? 0 : 1;
}
