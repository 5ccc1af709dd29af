#pragma once
// Paths the tests need, fixed at configure time (tests/support/test_paths.cpp.in); the GPU
// bundle's run.sh names its unpacked daemon and client in JETPERF_TEST_DAEMON and JETPERF_TEST_CLIENT.
#include <string>

namespace jetperf::test {

std::string source_dir();
std::string binary_dir();
/// tests/fixtures in the source tree (real board outputs and the project's own nvpmodel.conf files).
std::string fixtures_dir();
std::string daemon_path();
std::string client_path();
/// Where the programs command jobs run in the tests are built (tests/programs).
std::string test_programs_dir();
/// Where the simulator's nvpmodel/tegrastats programs are built.
std::string sim_tools_dir();

}  // namespace jetperf::test
