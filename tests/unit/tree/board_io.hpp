#pragma once
// Raw file I/O on board paths: only platform opens /sys, /proc and /dev (through sysfs_root, so a
// simulated board or a fixture tree can stand in for the board), and telemetry's sysfs readers
// open the host paths sysfs_root gave them. Anywhere else a file stream, fopen, open or a
// std::filesystem call on a path of platform::paths or a literal board path is reported.
#include <string>
#include <vector>

#include "include_graph.hpp"

namespace jetperf::test::tree {

void check_raw_board_io(const std::string& root, std::vector<violation>& out);

}  // namespace jetperf::test::tree
