// Elementwise activations without a cuDNN legacy mode: hardswish, hardsigmoid (MobileNetV3) and
// SiLU where cuDNN predates CUDNN_ACTIVATION_SWISH (8.2).
#include "layer_kernels.cuh"

#include "kernel_common.cuh"

namespace jetperf {
namespace kernels {
namespace {

using detail::from_float;
using detail::to_float;

__device__ __forceinline__ float relu6_shifted(float v) { return fminf(fmaxf(v + 3.0f, 0.0f), 6.0f); }

template <typename T>
__global__ void pointwise_kernel(pointwise_kind kind, const T* x, T* y, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const float v = to_float(x[i]);
    float r;
    switch (kind) {
      case pointwise_kind::hardswish: r = v * relu6_shifted(v) / 6.0f; break;
      case pointwise_kind::hardsigmoid: r = relu6_shifted(v) / 6.0f; break;
      default: r = v / (1.0f + expf(-v)); break;  // silu
    }
    y[i] = from_float<T>(r);
  }
}

}  // namespace

cudaError_t launch_pointwise(pointwise_kind kind, elem_type t, const void* x, void* y, std::int64_t n,
                             cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  const unsigned int blocks = detail::blocks_for(n);
  if (t == elem_type::f16)
    pointwise_kernel<__half><<<blocks, detail::k_threads, 0, stream>>>(kind, static_cast<const __half*>(x),
                                                                       static_cast<__half*>(y), n);
  else
    pointwise_kernel<float><<<blocks, detail::k_threads, 0, stream>>>(kind, static_cast<const float*>(x),
                                                                      static_cast<float*>(y), n);
  return cudaGetLastError();
}

}  // namespace kernels
}  // namespace jetperf
