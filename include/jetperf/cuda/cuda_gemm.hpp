#pragma once
// The plain C++ face of src/workloads/cuda/ (no CUDA types): the host side calls only these,
// and only when JETPERF_HAS_CUDA, so a build without the toolkit needs none of them.
#include <cstddef>
#include <memory>
#include <string>

#include <jetperf/backend/gemm_backend.hpp>

namespace jetperf::workloads::cuda {

struct device_info {
  int count = 0;          ///< 0 when no device (or the driver is missing)
  std::string error;      ///< cudaGetDeviceCount's error text when count == 0
  std::string name;
  int sm_major = 0;
  int sm_minor = 0;
  std::size_t memory_bytes = 0;
  int cuda_runtime_version = 0;
  int cuda_driver_version = 0;  ///< 0 without a driver
  int cublas_version = 0;
  int cudnn_version = 0;        ///< the loaded cuDNN library's, 0 in a build without cuDNN
};

/// Device 0 and the runtime; never throws.
device_info query_device();

/// The cuBLAS backend on device 0. Throws cuda_error when CUDA calls fail.
std::unique_ptr<gemm_backend> make_cublas_backend();

}  // namespace jetperf::workloads::cuda
