#pragma once
// An owning cuDNN context (jetperf::unique_handle) from cudnnCreate(handle.put()); destroy it
// before the stream it is bound to (declare the stream member first). Include only where
// JETPERF_HAS_CUDNN.
#include <cudnn.h>

#include <jetperf/common/unique_handle.hpp>

namespace jetperf::workloads::cuda {

struct cudnn_handle_traits {
  using handle_type = cudnnHandle_t;
  static handle_type null() noexcept { return nullptr; }
  static void release(handle_type h) noexcept { cudnnDestroy(h); }
};
using cudnn_handle = unique_handle<cudnn_handle_traits>;

}  // namespace jetperf::workloads::cuda
