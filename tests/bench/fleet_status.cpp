// `jetperf fleet status` over N simulated boards on loopback (default 20, alternating sim:orin-agx
// and sim:xavier-nx, each its own jetperfd with its own token): the wall time of the whole
// command, R runs (default 3). Target: under 1 s for 20 boards. Prints one JSON object.
//   bench_fleet_status [BOARDS] [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/run_client.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf::test;

int main(int argc, char** argv) {
  const int boards = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  temp_dir dir;
  std::vector<std::unique_ptr<daemon_process>> daemons;
  std::string hosts;
  for (int i = 0; i < boards; ++i) {
    const std::string name = "board-" + std::to_string(i);
    const std::string profile = i % 2 ? "sim:xavier-nx" : "sim:orin-agx";
    daemons.push_back(std::make_unique<daemon_process>(
        std::vector<std::string>{"--board", profile, "--board-name", name, "--log-level", "warn"}));
    write_file(dir.file(name + ".token"), daemons.back()->token() + "\n");
    hosts += name + " = " + daemons.back()->address() + " " + dir.file(name + ".token") + "\n";
  }
  write_file(dir.file("hosts"), hosts);
  std::vector<double> seconds;
  bool all_ok = true;
  int lines = 0;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto res = run_client({"fleet", "status", "--hosts-file", dir.file("hosts")});
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    all_ok = all_ok && res.exit_code == 0;
    lines = static_cast<int>(std::count(res.out.begin(), res.out.end(), '\n'));
    if (res.exit_code != 0) std::cerr << res.err;
  }
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  nlohmann::json out{{"bench", "fleet_status"},
                     {"boards", boards},
                     {"runs_s", seconds},
                     {"median_s", sorted[sorted.size() / 2]},
                     {"min_s", sorted.front()},
                     {"max_s", sorted.back()},
                     {"target_s", 1.0},
                     {"rows_printed", lines - 1},
                     {"all_ok", all_ok}};
  std::cout << out.dump() << std::endl;
  return all_ok ? 0 : 1;
}
