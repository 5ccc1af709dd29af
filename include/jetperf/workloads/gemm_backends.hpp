#pragma once
// Factories of the GEMM backends this build has.
#include <memory>
#include <string>

#include <jetperf/backend/gemm_backend.hpp>

namespace jetperf::workloads {

/// The CPU backend: OpenBLAS (float, double) and oneDNN (half). nullptr with `why` set when this
/// build has neither.
std::unique_ptr<gemm_backend> make_cpu_gemm_backend(std::string* why = nullptr);

/// The cuBLAS backend; nullptr with `why` = "skipped: no CUDA device (...)" when the machine has
/// no usable device, or "not supported by this build (no CUDA)" without JETPERF_HAS_CUDA.
std::unique_ptr<gemm_backend> make_cuda_gemm_backend(std::string* why = nullptr);

/// Whether a CUDA device can be used at run time (false in a build without CUDA).
bool cuda_device_available();

}  // namespace jetperf::workloads
