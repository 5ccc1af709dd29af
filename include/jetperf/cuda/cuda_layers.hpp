#pragma once
// The plain C++ face of the cuDNN layer backend in src/workloads/cuda/ (no CUDA types), called
// through the plugin's table (cuda_plugin_entry.cpp) and by the device tests.
#include <memory>
#include <string>

#include <jetperf/backend/layer_backend.hpp>

namespace jetperf::workloads::cuda {

/// cuDNN (legacy API) + cuBLAS + kernels/ on device 0. nullptr with `why` set, never a throw,
/// when there is no usable device ("skipped: no CUDA device (...)"), the handles cannot be
/// created, or the build has no cuDNN ("not supported by this build (no cuDNN)").
std::unique_ptr<layer_backend> make_cudnn_layer_backend(std::string* why);

}  // namespace jetperf::workloads::cuda
