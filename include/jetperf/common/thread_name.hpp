#pragma once
// Names of the daemon's threads (what top -H, gdb and /proc/<pid>/task/*/comm show). They also
// tell the daemon's own service threads from the threads that run a job: a simulated board's
// CPUs run only the latter (sim/workload_threads.hpp). Every service thread is "jp-<role>"; the
// job runner is "jp-runner", and the pools its libraries start (OpenMP, OpenBLAS) inherit the
// name of the thread that starts them. Linux keeps 15 characters of a name.
#include <string>

namespace jetperf {

inline constexpr const char* runner_thread_name = "jp-runner";

/// Names the calling thread (truncated to 15 characters).
void name_this_thread(const std::string& name);
/// The calling thread's name.
std::string this_thread_name();
/// Whether a thread of this name is one of the daemon's own service threads (HTTP, sampler, the
/// simulator...), as opposed to one that runs a job's workload.
bool is_service_thread(const std::string& name);

}  // namespace jetperf
