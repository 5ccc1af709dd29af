// The host side's only door to CUDA: plain C++ calls into src/workloads/cuda/, compiled only when
// the toolkit was found, so a build without CUDA answers "not supported" per point instead.
#include <jetperf/config.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

#if JETPERF_HAS_CUDA
#include <jetperf/cuda/cuda_gemm.hpp>
#endif

namespace jetperf::workloads {

bool cuda_device_available() {
#if JETPERF_HAS_CUDA
  return cuda::query_device().count > 0;
#else
  return false;
#endif
}

std::unique_ptr<gemm_backend> make_cuda_gemm_backend(std::string* why) {
#if JETPERF_HAS_CUDA
  const auto info = cuda::query_device();
  if (info.count == 0) {
    if (why) *why = "skipped: no CUDA device (" + info.error + ")";
    return nullptr;
  }
  return cuda::make_cublas_backend();
#else
  if (why) *why = "not supported by this build (no CUDA)";
  return nullptr;
#endif
}

}  // namespace jetperf::workloads
