#pragma once
// Failed CUDA, cuBLAS and CUPTI calls throw with the file, the line and the call (nvbench style).
#include <stdexcept>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace jetperf::workloads::cuda {

/// A failed CUDA runtime / cuBLAS / CUPTI call.
class cuda_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Text of a cuBLAS status (cublasGetStatusString exists only from CUDA 11.4).
const char* cublas_status_text(cublasStatus_t s);

[[noreturn]] void throw_cuda_error(const char* file, int line, const char* call, const std::string& what);

}  // namespace jetperf::workloads::cuda

#define JETPERF_CUDA_CALL(call)                                                                     \
  do {                                                                                              \
    const cudaError_t jetperf_err_ = (call);                                                        \
    if (jetperf_err_ != cudaSuccess)                                                                \
      ::jetperf::workloads::cuda::throw_cuda_error(__FILE__, __LINE__, #call,                       \
                                                   cudaGetErrorString(jetperf_err_));               \
  } while (0)

#define JETPERF_CUBLAS_CALL(call)                                                                   \
  do {                                                                                              \
    const cublasStatus_t jetperf_st_ = (call);                                                      \
    if (jetperf_st_ != CUBLAS_STATUS_SUCCESS)                                                       \
      ::jetperf::workloads::cuda::throw_cuda_error(__FILE__, __LINE__, #call,                       \
                                                   ::jetperf::workloads::cuda::cublas_status_text(jetperf_st_)); \
  } while (0)
