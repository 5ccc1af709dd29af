#pragma once
// What the benchmarks read of a process's memory and of the machine's load, from /proc.
#include <string>
#include <sys/types.h>

namespace jetperf::test {

/// A field of /proc/PID/status in kB ("VmRSS", "VmHWM", "RssAnon"), -1 when it cannot be read.
long long status_kb(pid_t pid, const std::string& key);
/// Resets the process's peak (VmHWM) to its resident size now, through /proc/PID/clear_refs
/// (Linux >= 4.0); false where that is not allowed.
bool reset_peak_rss(pid_t pid);
/// The 1-minute load average.
double loadavg1();

}  // namespace jetperf::test
