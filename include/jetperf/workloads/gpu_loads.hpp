#pragma once
// The factory of the sensor card's GPU load (jetperf/backend/gpu_load.hpp), through the CUDA
// plugin as every CUDA backend is.
#include <memory>
#include <string>

#include <jetperf/backend/gpu_load.hpp>

namespace jetperf::workloads {

/// The busy kernel on device 0; nullptr with `why` = "skipped: no CUDA device (...)" where no
/// device answers, or "not supported by this build (no CUDA)" without JETPERF_HAS_CUDA.
std::unique_ptr<gpu_load> make_gpu_load(std::string* why = nullptr);

}  // namespace jetperf::workloads
