#pragma once
// GPU time of work on one stream, by a pair of CUDA events around it: what every CUDA backend
// reports as a run's duration (host clocks would add launch and synchronisation latency).
#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "cuda_handles.hpp"

namespace jetperf::workloads::cuda {

class event_timer {
 public:
  /// Creates the events (on the current device); throws cuda_error.
  void create() {
    JETPERF_CUDA_CALL(cudaEventCreate(start_.put()));
    JETPERF_CUDA_CALL(cudaEventCreate(stop_.put()));
  }

  /// Seconds between the events recorded on `stream` before and after `enqueue()`; waits for them.
  template <class Enqueue>
  double time_s(cudaStream_t stream, Enqueue&& enqueue) {
    JETPERF_CUDA_CALL(cudaEventRecord(start_.get(), stream));
    enqueue();
    JETPERF_CUDA_CALL(cudaEventRecord(stop_.get(), stream));
    JETPERF_CUDA_CALL(cudaEventSynchronize(stop_.get()));
    float ms = 0;
    JETPERF_CUDA_CALL(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  cuda_event start_;
  cuda_event stop_;
};

}  // namespace jetperf::workloads::cuda
