// The sensor card's GPU load: arithmetic on every SM for a set time (load_kernels.cuh).
#include "load_kernels.cuh"

namespace jetperf {
namespace kernels {
namespace {

// The GPU's nanosecond timer, the same in every SM (a clock64 count would need the SM clock,
// which the governor may move).
__device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Dependent FMAs in registers: the ALUs busy, no memory traffic; the timer read every 256 of
// them costs little beside them. a converges to 1 (a' = 0.9999 a + 1e-4), never to -1.
__global__ void busy_kernel(std::int64_t duration_ns, float* sink) {
  const std::uint64_t until = global_timer_ns() + static_cast<std::uint64_t>(duration_ns);
  float a = static_cast<float>(threadIdx.x) * 1e-3f;
  do {
#pragma unroll
    for (int i = 0; i < 256; ++i) a = fmaf(a, 0.9999f, 1e-4f);
  } while (global_timer_ns() < until);
  if (a == -1.0f) *sink = a;
}

}  // namespace

cudaError_t launch_busy_kernel(std::int64_t duration_ns, unsigned int blocks, float* sink, cudaStream_t stream) {
  if (duration_ns <= 0 || blocks == 0) return cudaSuccess;
  busy_kernel<<<blocks, k_busy_threads, 0, stream>>>(duration_ns, sink);
  return cudaGetLastError();
}

}  // namespace kernels
}  // namespace jetperf
