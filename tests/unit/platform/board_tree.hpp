#pragma once
// Small board trees on disk with the real file names and formats (shared/jetson/README.md), for
// platform tests: AGX Orin r35/r36, AGX Xavier r32, Nano r32. Not the simulator: no live values.
#include <string>
#include <vector>

namespace jetperf::test {

enum class board_profile { orin_r35, orin_r36, xavier_r32, nano_r32 };

/// Writes the tree of `profile` under `root` (files, policy symlinks, devfreq class links).
void make_board_tree(const std::string& root, board_profile profile);
/// Writes an executable fake `nvpmodel` into `dir` that keeps its mode in dir/mode and answers
/// -q, -m N (modes listed in `names`, ids 0..n-1) and -p. Modes in `reboot_ids` prompt for a reboot
/// and switch only when "YES" arrives on stdin. Every call is appended to dir/calls.
std::string make_fake_nvpmodel(const std::string& dir, const std::vector<std::string>& names, int mode,
                               const std::vector<int>& reboot_ids = {});
/// Every regular file under `root` with its content, for before/after comparisons.
std::string dump_tree(const std::string& root);

}  // namespace jetperf::test
