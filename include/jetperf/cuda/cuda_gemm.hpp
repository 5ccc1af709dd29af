#pragma once
// The plain C++ face of src/workloads/cuda/ (no CUDA types): the plugin's table
// (cuda_plugin_entry.cpp) and the device tests call these; the host reaches them only through
// the table (jetperf/workloads/cuda_plugin.hpp).
#include <cstddef>
#include <memory>
#include <string>

#include <jetperf/backend/cuda_plugin_abi.hpp>
#include <jetperf/backend/gemm_backend.hpp>

namespace jetperf::workloads::cuda {

/// Device 0 and the runtime (the plugin ABI's struct: the host reads it through the table).
using device_info = cuda_device_info;

/// Device 0 and the runtime; never throws.
device_info query_device();

/// The cuBLAS backend on device 0. Throws cuda_error when CUDA calls fail.
std::unique_ptr<gemm_backend> make_cublas_backend();

}  // namespace jetperf::workloads::cuda
