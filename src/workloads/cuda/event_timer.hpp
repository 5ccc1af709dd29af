#pragma once
// GPU time of work on one stream, by a pair of CUDA events around it: what every CUDA backend
// reports as a run's duration (host clocks would add launch and synchronisation latency).
#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace jetperf::workloads::cuda {

class event_timer {
 public:
  event_timer() = default;
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
  }

  /// Creates the events (on the current device); throws cuda_error.
  void create() {
    JETPERF_CUDA_CALL(cudaEventCreate(&start_));
    JETPERF_CUDA_CALL(cudaEventCreate(&stop_));
  }

  /// Seconds between the events recorded on `stream` before and after `enqueue()`; waits for them.
  template <class Enqueue>
  double time_s(cudaStream_t stream, Enqueue&& enqueue) {
    JETPERF_CUDA_CALL(cudaEventRecord(start_, stream));
    enqueue();
    JETPERF_CUDA_CALL(cudaEventRecord(stop_, stream));
    JETPERF_CUDA_CALL(cudaEventSynchronize(stop_));
    float ms = 0;
    JETPERF_CUDA_CALL(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace jetperf::workloads::cuda
