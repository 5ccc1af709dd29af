#pragma once
// The sensor card's GPU load (kinds/sensor): device 0 kept busy for a given time, call after
// call, through each busy half of the square wave (measure/square_wave_load.hpp). Below both the
// host and the CUDA plugin, which implements it (src/workloads/cuda/cuda_gpu_load.cpp); no CUDA
// types.
#include <string>

namespace jetperf::workloads {

class gpu_load {
 public:
  virtual ~gpu_load() = default;
  /// Every SM busy with arithmetic for `seconds` (GPU time), returning once the work is done,
  /// the calling thread asleep meanwhile (it does not load a CPU core). False, with `why`, when
  /// the launch or the wait fails; never throws.
  virtual bool busy_for(double seconds, std::string* why) = 0;
};

}  // namespace jetperf::workloads
