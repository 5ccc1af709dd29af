#pragma once
// An owning cuDNN context (jetperf::unique_handle) from cudnnCreate(handle.put()); destroy it
// before the stream it is bound to (declare the stream member first). Include only where
// JETPERF_HAS_CUDNN.
#include <cudnn.h>

#include <jetperf/common/unique_handle.hpp>

namespace jetperf::workloads::cuda {

using cudnn_handle = unique_handle<released_by<cudnnHandle_t, cudnnStatus_t, cudnnDestroy>>;

}  // namespace jetperf::workloads::cuda
