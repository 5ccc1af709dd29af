#pragma once
// The running program's own file, as the kernel names it (/proc/self/exe): programs installed
// beside it (the simulator's nvpmodel and tegrastats) are found from there.
#include <optional>
#include <string>

namespace jetperf::platform {

/// The program file's path; nullopt when /proc/self/exe cannot be read.
std::optional<std::string> own_executable();

}  // namespace jetperf::platform
