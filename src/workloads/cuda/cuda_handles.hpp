#pragma once
// Owning CUDA runtime and cuBLAS handles (jetperf::unique_handle), so a backend whose
// constructor fails after creating some of them releases those it made.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <jetperf/common/unique_handle.hpp>

namespace jetperf::workloads::cuda {

struct cuda_stream_traits {
  using handle_type = cudaStream_t;
  static handle_type null() noexcept { return nullptr; }
  static void release(handle_type s) noexcept { cudaStreamDestroy(s); }
};
/// A stream from cudaStreamCreate(stream.put()).
using cuda_stream = unique_handle<cuda_stream_traits>;

struct cuda_event_traits {
  using handle_type = cudaEvent_t;
  static handle_type null() noexcept { return nullptr; }
  static void release(handle_type e) noexcept { cudaEventDestroy(e); }
};
/// An event from cudaEventCreate(event.put()).
using cuda_event = unique_handle<cuda_event_traits>;

struct cublas_handle_traits {
  using handle_type = cublasHandle_t;
  static handle_type null() noexcept { return nullptr; }
  static void release(handle_type h) noexcept { cublasDestroy(h); }
};
/// A cuBLAS context from cublasCreate(handle.put()); destroy it before the stream it is bound to
/// (declare the stream member first).
using cublas_handle = unique_handle<cublas_handle_traits>;

}  // namespace jetperf::workloads::cuda
