// The sensor card's GPU load on device 0 (jetperf/backend/gpu_load.hpp): the busy kernel
// (kernels/load_kernels.cuh) on a stream of its own, waited for on an event that blocks the
// caller. The default wait spins a core while work is in flight (cudaDeviceScheduleAuto with
// few contexts), which would put a CPU step on the rails beside the GPU's own; the event's
// blocking sync holds whatever flags the device was given earlier.
#include <jetperf/cuda/cuda_gpu_load.hpp>

#include <cstdint>

#include <cuda_runtime_api.h>

#include <jetperf/cuda/cuda_device_memory.hpp>
#include <jetperf/cuda/cuda_gemm.hpp>

#include "cuda_check.hpp"
#include "load_kernels.cuh"

namespace jetperf::workloads::cuda {
namespace {

class cuda_gpu_load final : public gpu_load {
 public:
  cuda_gpu_load() : sink_(sizeof(float)) {
    int sms = 0, threads_per_sm = 0;
    JETPERF_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    JETPERF_CUDA_CALL(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    // Every SM full: as many blocks as all of them hold at once, so none waits for a turn.
    blocks_ = static_cast<unsigned int>(sms) * static_cast<unsigned int>(threads_per_sm) / kernels::k_busy_threads;
    if (blocks_ == 0) blocks_ = 1;
    JETPERF_CUDA_CALL(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    const cudaError_t e = cudaEventCreateWithFlags(&done_, cudaEventBlockingSync | cudaEventDisableTiming);
    if (e != cudaSuccess) {
      cudaStreamDestroy(stream_);
      throw_cuda_error(__FILE__, __LINE__, "cudaEventCreateWithFlags", cudaGetErrorString(e));
    }
  }
  ~cuda_gpu_load() override {
    cudaEventDestroy(done_);
    cudaStreamDestroy(stream_);
  }
  cuda_gpu_load(const cuda_gpu_load&) = delete;
  cuda_gpu_load& operator=(const cuda_gpu_load&) = delete;

  bool busy_for(double seconds, std::string* why) override {
    const auto ns = static_cast<std::int64_t>(seconds * 1e9);
    cudaError_t e = kernels::launch_busy_kernel(ns, blocks_, static_cast<float*>(sink_.get()), stream_);
    if (e == cudaSuccess) e = cudaEventRecord(done_, stream_);
    if (e == cudaSuccess) e = cudaEventSynchronize(done_);
    if (e == cudaSuccess) return true;
    if (why) *why = std::string("the GPU load failed: ") + cudaGetErrorString(e);
    return false;
  }

 private:
  device_memory sink_;
  unsigned int blocks_ = 1;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

}  // namespace

std::unique_ptr<gpu_load> make_gpu_load(std::string* why) {
  const auto device = query_device();
  if (device.count == 0) {
    if (why) *why = "skipped: no CUDA device (" + device.error + ")";
    return nullptr;
  }
  try {
    return std::make_unique<cuda_gpu_load>();
  } catch (const std::exception& e) {
    if (why) *why = std::string("skipped: the GPU load cannot start: ") + e.what();
    return nullptr;
  }
}

}  // namespace jetperf::workloads::cuda
