#pragma once
// The process's kernel tracer (jetperf/backend/kernel_trace.hpp) over CUPTI's activity API:
// kernel records, and the runtime and driver API records whose correlation ids give each launch's
// host time. Only when this build found CUPTI (JETPERF_HAS_CUPTI).
#include <jetperf/backend/kernel_trace.hpp>

namespace jetperf::workloads::cuda {

/// The one tracer (CUPTI's callbacks are process-wide); nullptr in a build without CUPTI.
kernel_tracer* cupti_kernel_tracer();

}  // namespace jetperf::workloads::cuda
