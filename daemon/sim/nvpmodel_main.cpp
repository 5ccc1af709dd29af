// jetperf-sim-nvpmodel: installed as <board dir>/bin/nvpmodel (see nvpmodel_program.hpp).
#include <iostream>
#include <string>
#include <vector>

#include <jetperf/common/errors.hpp>
#include <jetperf/sim/nvpmodel_program.hpp>

#include "locate_board.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    jetperf::sim::board_layout layout(jetperf::sim::locate_board_dir());
    return jetperf::sim::nvpmodel_main(layout, args, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cout << "NVPM ERROR: " << e.what() << std::endl;
    return 1;
  }
}
