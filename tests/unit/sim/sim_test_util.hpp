#pragma once
// Shared helpers of the sim unit tests: a fresh board in a temp dir and running its programs.
#include <string>
#include <vector>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/subprocess.hpp>
#include <jetperf/sim/sim_board.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::sim::sim_testing {

inline sim_board make_board(const std::string& profile, const jetperf::test::temp_dir& tmp) {
  sim_create_options o;
  o.tools_dir = jetperf::test::sim_tools_dir();
  return sim_board::create(profile, tmp.path() + "/" + profile, o);
}

inline platform::process_result run(const std::string& program, const std::vector<std::string>& args,
                                    const std::string& stdin_text = {}) {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  return platform::run_process(argv, std::chrono::milliseconds(20000), stdin_text);
}

}  // namespace jetperf::sim::sim_testing
