#pragma once
// The store's footprint as /v1/health and /metrics report it (api::storage_status).
#include <functional>

#include <jetperf/api/storage_status.hpp>
#include <jetperf/store/retention_store.hpp>

#include "daemon_config.hpp"

namespace jetperf::daemon {

/// Reads, when called: the database file's size with its WAL, the free space on its file system
/// and the age of the oldest full-rate samples. `retention` must outlive the function.
std::function<api::storage_status()> storage_status_of(const daemon_config& config, const store::retention_store& retention);

}  // namespace jetperf::daemon
