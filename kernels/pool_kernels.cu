// Pooling whose windows cuDNN's descriptors cannot express: torch's ceil_mode (a last window that
// starts inside the input but runs past the padding) and AdaptiveAvgPool2d when the input size is
// not a multiple of the output size (windows of varying size that overlap).
#include "layer_kernels.cuh"

#include <cfloat>

#include "kernel_common.cuh"

namespace jetperf {
namespace kernels {
namespace {

using detail::from_float;
using detail::to_float;

// torch's max_pool2d / avg_pool2d forward (aten/src/ATen/native/cuda/{DilatedMaxPool2d,AveragePool2d}.cu)
// without dilation: windows clipped to the input; the include-pad divisor counts the window
// clipped to the padded input only.
template <typename T>
__global__ void pool2d_kernel(pool_kind kind, pool_shape s, const T* x, T* y, std::int64_t total) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t ow = i % s.out_w;
    const std::int64_t oh = (i / s.out_w) % s.out_h;
    const std::int64_t nc = i / (s.out_w * s.out_h);
    const T* plane = x + nc * s.in_h * s.in_w;
    std::int64_t h0 = oh * s.stride_h - s.pad_h, w0 = ow * s.stride_w - s.pad_w;
    std::int64_t h1 = h0 + s.kernel_h, w1 = w0 + s.kernel_w;
    float r;
    if (kind == pool_kind::max) {
      if (h1 > s.in_h) h1 = s.in_h;
      if (w1 > s.in_w) w1 = s.in_w;
      if (h0 < 0) h0 = 0;
      if (w0 < 0) w0 = 0;
      r = -FLT_MAX;
      bool any = false;
      for (std::int64_t h = h0; h < h1; ++h)
        for (std::int64_t w = w0; w < w1; ++w) {
          const float v = to_float(plane[h * s.in_w + w]);
          if (!any || v > r || v != v) r = v;  // NaN propagates as in torch
          any = true;
        }
    } else {
      if (h1 > s.in_h + s.pad_h) h1 = s.in_h + s.pad_h;
      if (w1 > s.in_w + s.pad_w) w1 = s.in_w + s.pad_w;
      const std::int64_t padded_count = (h1 - h0) * (w1 - w0);
      if (h0 < 0) h0 = 0;
      if (w0 < 0) w0 = 0;
      if (h1 > s.in_h) h1 = s.in_h;
      if (w1 > s.in_w) w1 = s.in_w;
      float sum = 0.0f;
      for (std::int64_t h = h0; h < h1; ++h)
        for (std::int64_t w = w0; w < w1; ++w) sum += to_float(plane[h * s.in_w + w]);
      const std::int64_t count = kind == pool_kind::avg_include_pad ? padded_count : (h1 - h0) * (w1 - w0);
      r = count > 0 ? sum / static_cast<float>(count) : 0.0f;
    }
    y[i] = from_float<T>(r);
  }
}

template <typename T>
__global__ void adaptive_avg_pool2d_kernel(pool_shape s, const T* x, T* y, std::int64_t total) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t ow = i % s.out_w;
    const std::int64_t oh = (i / s.out_w) % s.out_h;
    const std::int64_t nc = i / (s.out_w * s.out_h);
    const T* plane = x + nc * s.in_h * s.in_w;
    const std::int64_t h0 = oh * s.in_h / s.out_h, h1 = ((oh + 1) * s.in_h + s.out_h - 1) / s.out_h;
    const std::int64_t w0 = ow * s.in_w / s.out_w, w1 = ((ow + 1) * s.in_w + s.out_w - 1) / s.out_w;
    float sum = 0.0f;
    for (std::int64_t h = h0; h < h1; ++h)
      for (std::int64_t w = w0; w < w1; ++w) sum += to_float(plane[h * s.in_w + w]);
    y[i] = from_float<T>(sum / static_cast<float>((h1 - h0) * (w1 - w0)));
  }
}

bool valid(const pool_shape& s) {
  return s.batch > 0 && s.channels > 0 && s.in_h > 0 && s.in_w > 0 && s.out_h > 0 && s.out_w > 0;
}

}  // namespace

cudaError_t launch_pool2d(pool_kind kind, elem_type t, const pool_shape& s, const void* x, void* y,
                          cudaStream_t stream) {
  if (!valid(s) || s.kernel_h <= 0 || s.kernel_w <= 0 || s.stride_h <= 0 || s.stride_w <= 0 || s.pad_h < 0 ||
      s.pad_w < 0)
    return cudaErrorInvalidValue;
  const std::int64_t total = s.batch * s.channels * s.out_h * s.out_w;
  const unsigned int blocks = detail::blocks_for(total);
  if (t == elem_type::f16)
    pool2d_kernel<__half><<<blocks, detail::k_threads, 0, stream>>>(kind, s, static_cast<const __half*>(x),
                                                                    static_cast<__half*>(y), total);
  else
    pool2d_kernel<float><<<blocks, detail::k_threads, 0, stream>>>(kind, s, static_cast<const float*>(x),
                                                                   static_cast<float*>(y), total);
  return cudaGetLastError();
}

cudaError_t launch_adaptive_avg_pool2d(elem_type t, const pool_shape& s, const void* x, void* y,
                                       cudaStream_t stream) {
  if (!valid(s)) return cudaErrorInvalidValue;
  const std::int64_t total = s.batch * s.channels * s.out_h * s.out_w;
  const unsigned int blocks = detail::blocks_for(total);
  if (t == elem_type::f16)
    adaptive_avg_pool2d_kernel<__half><<<blocks, detail::k_threads, 0, stream>>>(
        s, static_cast<const __half*>(x), static_cast<__half*>(y), total);
  else
    adaptive_avg_pool2d_kernel<float><<<blocks, detail::k_threads, 0, stream>>>(
        s, static_cast<const float*>(x), static_cast<float*>(y), total);
  return cudaGetLastError();
}

}  // namespace kernels
}  // namespace jetperf
