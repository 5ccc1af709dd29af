#pragma once
// Launchers of the layer kernels that cuDNN's legacy API has no primitive for (hardswish,
// hardsigmoid, SiLU before cuDNN 8.2, channel copies for torch.cat / chunk, channel_shuffle, and
// the pooling cases whose windows cuDNN cannot express: ceil_mode and non-uniform adaptive
// windows). Plain C++14 with no device code, so host .cpp files include it too. Tensors are
// contiguous NCHW; `elem_type` says whether they hold float or __half. Each launcher returns the
// launch's cudaError_t (cudaSuccess for an empty tensor, which launches nothing).
#include <cstdint>

#include <cuda_runtime_api.h>

namespace jetperf {
namespace kernels {

enum class elem_type { f32, f16 };

/// Elementwise functions as torch defines them: hardswish x*relu6(x+3)/6, hardsigmoid
/// relu6(x+3)/6, silu x*sigmoid(x).
enum class pointwise_kind { hardswish, hardsigmoid, silu };

/// y[i] = f(x[i]) for i < n (computed in float; x == y is allowed).
cudaError_t launch_pointwise(pointwise_kind kind, elem_type t, const void* x, void* y, std::int64_t n,
                             cudaStream_t stream);

/// Copies channels [src_first, src_first + channels) of src (src_channels channels) to channels
/// [dst_first, dst_first + channels) of dst (dst_channels channels), for every sample: one part of
/// torch.cat(dim=1) or one x.chunk(dim=1) slice.
cudaError_t launch_channel_copy(elem_type t, const void* src, std::int64_t src_channels, std::int64_t src_first,
                                void* dst, std::int64_t dst_channels, std::int64_t dst_first, std::int64_t channels,
                                std::int64_t batch, std::int64_t hw, cudaStream_t stream);

/// ShuffleNet's x.view(N, g, C/g, H, W).transpose(1, 2).reshape(N, C, H, W).
cudaError_t launch_channel_shuffle(elem_type t, const void* x, void* y, std::int64_t batch, std::int64_t channels,
                                   std::int64_t groups, std::int64_t hw, cudaStream_t stream);

/// Shapes of a 2-D pooling; out_h/out_w are given (the caller's, e.g. torch's ceil_mode sizes).
struct pool_shape {
  std::int64_t batch = 1, channels = 1;
  std::int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  std::int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
};

enum class pool_kind { max, avg_include_pad, avg_exclude_pad };

/// MaxPool2d / AvgPool2d with torch's window rules (windows clipped to the input, the
/// include-pad divisor clipped to the padded input, as torch does in ceil_mode).
cudaError_t launch_pool2d(pool_kind kind, elem_type t, const pool_shape& s, const void* x, void* y,
                          cudaStream_t stream);

/// AdaptiveAvgPool2d: window [floor(i*in/out), ceil((i+1)*in/out)) (kernel/stride/pad ignored).
cudaError_t launch_adaptive_avg_pool2d(elem_type t, const pool_shape& s, const void* x, void* y,
                                       cudaStream_t stream);

}  // namespace kernels
}  // namespace jetperf
