#pragma once
// The plain C++ face of the sensor card's GPU load in src/workloads/cuda/ (no CUDA types), called
// through the plugin's table (cuda_plugin_entry.cpp) and by the device tests.
#include <memory>
#include <string>

#include <jetperf/backend/gpu_load.hpp>

namespace jetperf::workloads::cuda {

/// The busy kernel on device 0; nullptr with `why` ("skipped: ...") when there is no usable
/// device, never a throw.
std::unique_ptr<gpu_load> make_gpu_load(std::string* why);

}  // namespace jetperf::workloads::cuda
