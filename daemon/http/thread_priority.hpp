#pragma once
// The API's threads run niced, away from the workload a job measures.

namespace jetperf::daemon {

/// Adds `increment` to the calling thread's nice value (Linux keeps one per thread); failures
/// are logged at debug level and otherwise ignored.
void renice_this_thread(int increment);

}  // namespace jetperf::daemon
