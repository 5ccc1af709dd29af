#pragma once
// Owning CUDA runtime and cuBLAS handles (jetperf::unique_handle), so a backend whose
// constructor fails after creating some of them releases those it made.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <jetperf/common/unique_handle.hpp>

namespace jetperf::workloads::cuda {

/// A stream from cudaStreamCreate(stream.put()).
using cuda_stream = unique_handle<released_by<cudaStream_t, cudaError_t, cudaStreamDestroy>>;
/// An event from cudaEventCreate(event.put()).
using cuda_event = unique_handle<released_by<cudaEvent_t, cudaError_t, cudaEventDestroy>>;
/// A cuBLAS context from cublasCreate(handle.put()); destroy it before the stream it is bound to
/// (declare the stream member first).
using cublas_handle = unique_handle<released_by<cublasHandle_t, cublasStatus_t, cublasDestroy>>;

}  // namespace jetperf::workloads::cuda
