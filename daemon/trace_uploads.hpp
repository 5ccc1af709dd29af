#pragma once
// Where attached traces live: <database dir>/traces (the runtime directory's for an in-memory
// database), owner-only, with the partial uploads a crash left behind removed at start-up.
#include <string>

#include "daemon_config.hpp"

namespace jetperf::daemon {

/// Creates the directory (0700) and deletes stale "upload-*.part" files in it; returns its path.
std::string prepare_trace_dir(const daemon_config& config);

}  // namespace jetperf::daemon
