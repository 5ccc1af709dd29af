// Channel moves of NCHW tensors: one part of torch.cat(dim=1), one chunk slice, channel_shuffle.
#include "layer_kernels.cuh"

#include "kernel_common.cuh"

namespace jetperf {
namespace kernels {
namespace {

// Index space: batch x channels x hw of the copied channels; one element per thread iteration.
template <typename T>
__global__ void channel_copy_kernel(const T* src, std::int64_t src_channels, std::int64_t src_first, T* dst,
                                    std::int64_t dst_channels, std::int64_t dst_first, std::int64_t channels,
                                    std::int64_t hw, std::int64_t total) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t p = i % hw;
    const std::int64_t c = (i / hw) % channels;
    const std::int64_t n = i / (hw * channels);
    dst[(n * dst_channels + dst_first + c) * hw + p] = src[(n * src_channels + src_first + c) * hw + p];
  }
}

// Output channel oc = j * groups + g reads input channel g * (C / groups) + j.
template <typename T>
__global__ void channel_shuffle_kernel(const T* x, T* y, std::int64_t channels, std::int64_t groups,
                                       std::int64_t hw, std::int64_t total) {
  const std::int64_t per_group = channels / groups;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t p = i % hw;
    const std::int64_t oc = (i / hw) % channels;
    const std::int64_t n = i / (hw * channels);
    const std::int64_t ic = (oc % groups) * per_group + oc / groups;
    y[i] = x[(n * channels + ic) * hw + p];
  }
}

}  // namespace

cudaError_t launch_channel_copy(elem_type t, const void* src, std::int64_t src_channels, std::int64_t src_first,
                                void* dst, std::int64_t dst_channels, std::int64_t dst_first, std::int64_t channels,
                                std::int64_t batch, std::int64_t hw, cudaStream_t stream) {
  const std::int64_t total = batch * channels * hw;
  if (total <= 0) return cudaSuccess;
  if (src_first < 0 || dst_first < 0 || src_first + channels > src_channels || dst_first + channels > dst_channels)
    return cudaErrorInvalidValue;
  const unsigned int blocks = detail::blocks_for(total);
  if (t == elem_type::f16)
    channel_copy_kernel<__half><<<blocks, detail::k_threads, 0, stream>>>(
        static_cast<const __half*>(src), src_channels, src_first, static_cast<__half*>(dst), dst_channels, dst_first,
        channels, hw, total);
  else
    channel_copy_kernel<float><<<blocks, detail::k_threads, 0, stream>>>(
        static_cast<const float*>(src), src_channels, src_first, static_cast<float*>(dst), dst_channels, dst_first,
        channels, hw, total);
  return cudaGetLastError();
}

cudaError_t launch_channel_shuffle(elem_type t, const void* x, void* y, std::int64_t batch, std::int64_t channels,
                                   std::int64_t groups, std::int64_t hw, cudaStream_t stream) {
  const std::int64_t total = batch * channels * hw;
  if (total <= 0) return cudaSuccess;
  if (groups <= 0 || channels % groups != 0) return cudaErrorInvalidValue;
  const unsigned int blocks = detail::blocks_for(total);
  if (t == elem_type::f16)
    channel_shuffle_kernel<__half><<<blocks, detail::k_threads, 0, stream>>>(
        static_cast<const __half*>(x), static_cast<__half*>(y), channels, groups, hw, total);
  else
    channel_shuffle_kernel<float><<<blocks, detail::k_threads, 0, stream>>>(
        static_cast<const float*>(x), static_cast<float*>(y), channels, groups, hw, total);
  return cudaGetLastError();
}

}  // namespace kernels
}  // namespace jetperf
