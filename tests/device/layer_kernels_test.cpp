// kernels/layer_kernels.cuh against plain CPU loops written here (independently of the reference
// backend): pointwise activations, channel copy / shuffle, torch-style pooling with ceil_mode and
// adaptive average pooling, in float and half.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDA

#include <cuda_runtime_api.h>

#include <jetperf/backend/detail/half_bits.hpp>
#include <jetperf/cuda/cuda_device_memory.hpp>
#include <jetperf/cuda/cuda_gemm.hpp>
#include <layer_kernels.cuh>

namespace k = jetperf::kernels;
using jetperf::workloads::detail::float_to_half_bits;
using jetperf::workloads::detail::half_bits_to_float;

namespace {

bool have_device(std::string* why) {
  const auto info = jetperf::workloads::cuda::query_device();
  if (info.count == 0) *why = "skipped: no CUDA device (" + info.error + ")";
  return info.count > 0;
}

#define SKIP_WITHOUT_DEVICE()         \
  do {                                \
    std::string why_;                 \
    if (!have_device(&why_)) GTEST_SKIP() << why_; \
  } while (0)

/// A device copy of host floats as float or half; reads back as floats.
class device_tensor {
 public:
  device_tensor(const std::vector<float>& values, bool half)
      : memory_(std::max<std::size_t>(1, values.size() * (half ? 2 : 4))), half_(half), count_(values.size()) {
    jetperf::workloads::cuda::upload_floats(values, half, memory_.get(), nullptr);
  }
  device_tensor(std::size_t count, bool half) : device_tensor(std::vector<float>(count, -123.0f), half) {}
  void* get() const { return memory_.get(); }
  std::vector<float> read() const {
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    return jetperf::workloads::cuda::download_floats(memory_.get(), count_, half_, nullptr);
  }

 private:
  jetperf::workloads::cuda::device_memory memory_;
  bool half_;
  std::size_t count_;
};

std::vector<float> ramp(std::size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * static_cast<float>((i * 7919) % n) / static_cast<float>(n);
  return v;
}

/// Inputs as the kernel sees them (rounded to half for half runs).
std::vector<float> as_seen(std::vector<float> v, bool half) {
  if (half)
    for (float& x : v) x = half_bits_to_float(float_to_half_bits(x));
  return v;
}

void expect_near_all(const std::vector<float>& got, const std::vector<float>& want, bool half, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const double rel = half ? 2e-3 : 1e-5;  // one rounding of the output (half), float sums of a few terms
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tol = rel * std::max(1.0, std::fabs(static_cast<double>(want[i])));
    if (!(std::fabs(got[i] - want[i]) <= tol)) {
      if (bad < 5) ADD_FAILURE() << what << "[" << i << "]: " << got[i] << " != " << want[i];
      ++bad;
    }
  }
  EXPECT_EQ(bad, 0u) << what;
}

const k::elem_type k_types[] = {k::elem_type::f32, k::elem_type::f16};

float relu6_shifted(float v) { return std::fmin(std::fmax(v + 3.0f, 0.0f), 6.0f); }

// torch's pooling windows, written from the documentation's formulas.
std::vector<float> cpu_pool(k::pool_kind kind, const k::pool_shape& s, const std::vector<float>& x) {
  std::vector<float> y(static_cast<std::size_t>(s.batch * s.channels * s.out_h * s.out_w));
  for (std::int64_t nc = 0; nc < s.batch * s.channels; ++nc)
    for (std::int64_t oh = 0; oh < s.out_h; ++oh)
      for (std::int64_t ow = 0; ow < s.out_w; ++ow) {
        const std::int64_t hs = oh * s.stride_h - s.pad_h, ws = ow * s.stride_w - s.pad_w;
        const std::int64_t he_pad = std::min(hs + s.kernel_h, s.in_h + s.pad_h);
        const std::int64_t we_pad = std::min(ws + s.kernel_w, s.in_w + s.pad_w);
        const std::int64_t h0 = std::max<std::int64_t>(hs, 0), w0 = std::max<std::int64_t>(ws, 0);
        const std::int64_t h1 = std::min(hs + s.kernel_h, s.in_h), w1 = std::min(ws + s.kernel_w, s.in_w);
        double acc = kind == k::pool_kind::max ? -INFINITY : 0.0;
        for (std::int64_t h = h0; h < h1; ++h)
          for (std::int64_t w = w0; w < w1; ++w) {
            const double v = x[static_cast<std::size_t>((nc * s.in_h + h) * s.in_w + w)];
            acc = kind == k::pool_kind::max ? std::max(acc, v) : acc + v;
          }
        if (kind == k::pool_kind::avg_include_pad) acc /= static_cast<double>((he_pad - hs) * (we_pad - ws));
        if (kind == k::pool_kind::avg_exclude_pad) acc /= static_cast<double>((h1 - h0) * (w1 - w0));
        y[static_cast<std::size_t>((nc * s.out_h + oh) * s.out_w + ow)] = static_cast<float>(acc);
      }
  return y;
}

/// torch's output size of a pooling dimension with ceil_mode.
std::int64_t ceil_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p) {
  std::int64_t out = (in + 2 * p - k + s - 1) / s + 1;
  if ((out - 1) * s >= in + p) --out;
  return out;
}

}  // namespace

TEST(layer_kernels, reject_bad_arguments_before_launching) {
  // Argument checks happen on the host, so these hold without a device too.
  EXPECT_EQ(k::launch_channel_shuffle(k::elem_type::f32, nullptr, nullptr, 1, 8, 3, 4, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(k::launch_channel_copy(k::elem_type::f32, nullptr, 4, 2, nullptr, 4, 0, 3, 1, 4, nullptr),
            cudaErrorInvalidValue);
  k::pool_shape s;
  s.stride_h = 0;
  EXPECT_EQ(k::launch_pool2d(k::pool_kind::max, k::elem_type::f32, s, nullptr, nullptr, nullptr), cudaErrorInvalidValue);
  s = k::pool_shape{};
  s.out_h = 0;
  EXPECT_EQ(k::launch_adaptive_avg_pool2d(k::elem_type::f16, s, nullptr, nullptr, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(k::launch_pointwise(k::pointwise_kind::silu, k::elem_type::f32, nullptr, nullptr, 0, nullptr), cudaSuccess);
}

TEST(layer_kernels, pointwise_activations) {
  SKIP_WITHOUT_DEVICE();
  const std::vector<float> x = ramp(1000, -6.0f, 6.0f);
  struct fn {
    k::pointwise_kind kind;
    const char* name;
    std::function<float(float)> f;
  };
  const fn fns[] = {{k::pointwise_kind::hardswish, "hardswish", [](float v) { return v * relu6_shifted(v) / 6.0f; }},
                    {k::pointwise_kind::hardsigmoid, "hardsigmoid", [](float v) { return relu6_shifted(v) / 6.0f; }},
                    {k::pointwise_kind::silu, "silu", [](float v) { return v / (1.0f + std::exp(-v)); }}};
  for (const k::elem_type t : k_types) {
    const bool half = t == k::elem_type::f16;
    const auto seen = as_seen(x, half);
    for (const fn& f : fns) {
      device_tensor dx(x, half), dy(x.size(), half);
      ASSERT_EQ(k::launch_pointwise(f.kind, t, dx.get(), dy.get(), static_cast<std::int64_t>(x.size()), nullptr),
                cudaSuccess);
      std::vector<float> want(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) want[i] = f.f(seen[i]);
      expect_near_all(dy.read(), want, half, std::string(f.name) + (half ? " half" : " float"));
    }
  }
}

TEST(layer_kernels, channel_copy_builds_a_concat_and_a_chunk) {
  SKIP_WITHOUT_DEVICE();
  const std::int64_t n = 2, hw = 5, ca = 3, cb = 4, c = ca + cb;
  const auto a = ramp(static_cast<std::size_t>(n * ca * hw), -1, 1), b = ramp(static_cast<std::size_t>(n * cb * hw), 2, 3);
  for (const k::elem_type t : k_types) {
    const bool half = t == k::elem_type::f16;
    device_tensor da(a, half), db(b, half), dy(static_cast<std::size_t>(n * c * hw), half);
    ASSERT_EQ(k::launch_channel_copy(t, da.get(), ca, 0, dy.get(), c, 0, ca, n, hw, nullptr), cudaSuccess);
    ASSERT_EQ(k::launch_channel_copy(t, db.get(), cb, 0, dy.get(), c, ca, cb, n, hw, nullptr), cudaSuccess);
    const auto sa = as_seen(a, half), sb = as_seen(b, half);
    std::vector<float> cat;
    for (std::int64_t s = 0; s < n; ++s) {
      cat.insert(cat.end(), sa.begin() + s * ca * hw, sa.begin() + (s + 1) * ca * hw);
      cat.insert(cat.end(), sb.begin() + s * cb * hw, sb.begin() + (s + 1) * cb * hw);
    }
    expect_near_all(dy.read(), cat, half, "concat");

    // Chunk 1 of 2 of b: channels [2, 4).
    device_tensor dchunk(static_cast<std::size_t>(n * 2 * hw), half);
    ASSERT_EQ(k::launch_channel_copy(t, db.get(), cb, 2, dchunk.get(), 2, 0, 2, n, hw, nullptr), cudaSuccess);
    std::vector<float> chunk;
    for (std::int64_t s = 0; s < n; ++s)
      chunk.insert(chunk.end(), sb.begin() + (s * cb + 2) * hw, sb.begin() + (s * cb + 4) * hw);
    expect_near_all(dchunk.read(), chunk, half, "chunk");
  }
}

TEST(layer_kernels, channel_shuffle_is_torch_view_transpose_view) {
  SKIP_WITHOUT_DEVICE();
  const std::int64_t n = 2, c = 12, g = 3, hw = 4;
  const auto x = ramp(static_cast<std::size_t>(n * c * hw), -1, 1);
  for (const k::elem_type t : k_types) {
    const bool half = t == k::elem_type::f16;
    device_tensor dx(x, half), dy(x.size(), half);
    ASSERT_EQ(k::launch_channel_shuffle(t, dx.get(), dy.get(), n, c, g, hw, nullptr), cudaSuccess);
    const auto sx = as_seen(x, half);
    // view(n, g, c/g, hw) -> transpose(1, 2) -> (n, c/g, g, hw): y[s][j][i] = x[s][i][j].
    std::vector<float> want(x.size());
    const std::int64_t cpg = c / g;
    for (std::int64_t s = 0; s < n; ++s)
      for (std::int64_t j = 0; j < cpg; ++j)
        for (std::int64_t i = 0; i < g; ++i)
          for (std::int64_t p = 0; p < hw; ++p)
            want[static_cast<std::size_t>(((s * cpg + j) * g + i) * hw + p)] =
                sx[static_cast<std::size_t>(((s * g + i) * cpg + j) * hw + p)];
    expect_near_all(dy.read(), want, half, "channel_shuffle");
  }
}

TEST(layer_kernels, pool2d_follows_torch_ceil_mode_windows) {
  SKIP_WITHOUT_DEVICE();
  struct pool_case {
    k::pool_kind kind;
    std::int64_t in, kernel, stride, pad;
  };
  const pool_case cases[] = {{k::pool_kind::max, 14, 3, 2, 0},        // squeezenet's ceil_mode max pool
                             {k::pool_kind::max, 13, 3, 2, 1},
                             {k::pool_kind::avg_include_pad, 10, 3, 2, 1},
                             {k::pool_kind::avg_exclude_pad, 10, 3, 2, 1},
                             {k::pool_kind::avg_include_pad, 7, 2, 2, 0}};
  for (const auto& pc : cases) {
    k::pool_shape s;
    s.batch = 2, s.channels = 3, s.in_h = pc.in, s.in_w = pc.in + 1;
    s.kernel_h = s.kernel_w = pc.kernel, s.stride_h = s.stride_w = pc.stride, s.pad_h = s.pad_w = pc.pad;
    s.out_h = ceil_out(s.in_h, pc.kernel, pc.stride, pc.pad);
    s.out_w = ceil_out(s.in_w, pc.kernel, pc.stride, pc.pad);
    const auto x = ramp(static_cast<std::size_t>(s.batch * s.channels * s.in_h * s.in_w), -2, 2);
    for (const k::elem_type t : k_types) {
      const bool half = t == k::elem_type::f16;
      device_tensor dx(x, half), dy(static_cast<std::size_t>(s.batch * s.channels * s.out_h * s.out_w), half);
      ASSERT_EQ(k::launch_pool2d(pc.kind, t, s, dx.get(), dy.get(), nullptr), cudaSuccess);
      expect_near_all(dy.read(), cpu_pool(pc.kind, s, as_seen(x, half)), half,
                      "pool kind " + std::to_string(static_cast<int>(pc.kind)) + " in " + std::to_string(pc.in));
    }
  }
}

TEST(layer_kernels, adaptive_avg_pool_overlapping_windows) {
  SKIP_WITHOUT_DEVICE();
  k::pool_shape s;
  s.batch = 2, s.channels = 3, s.in_h = 7, s.in_w = 10, s.out_h = 3, s.out_w = 4;
  const auto x = ramp(static_cast<std::size_t>(s.batch * s.channels * s.in_h * s.in_w), -1, 1);
  for (const k::elem_type t : k_types) {
    const bool half = t == k::elem_type::f16;
    const auto sx = as_seen(x, half);
    device_tensor dx(x, half), dy(static_cast<std::size_t>(s.batch * s.channels * s.out_h * s.out_w), half);
    ASSERT_EQ(k::launch_adaptive_avg_pool2d(t, s, dx.get(), dy.get(), nullptr), cudaSuccess);
    std::vector<float> want;
    for (std::int64_t nc = 0; nc < s.batch * s.channels; ++nc)
      for (std::int64_t oh = 0; oh < s.out_h; ++oh)
        for (std::int64_t ow = 0; ow < s.out_w; ++ow) {
          const auto h0 = static_cast<std::int64_t>(std::floor(static_cast<double>(oh * s.in_h) / s.out_h));
          const auto h1 = static_cast<std::int64_t>(std::ceil(static_cast<double>((oh + 1) * s.in_h) / s.out_h));
          const auto w0 = static_cast<std::int64_t>(std::floor(static_cast<double>(ow * s.in_w) / s.out_w));
          const auto w1 = static_cast<std::int64_t>(std::ceil(static_cast<double>((ow + 1) * s.in_w) / s.out_w));
          double sum = 0;
          for (std::int64_t h = h0; h < h1; ++h)
            for (std::int64_t w = w0; w < w1; ++w) sum += sx[static_cast<std::size_t>((nc * s.in_h + h) * s.in_w + w)];
          want.push_back(static_cast<float>(sum / static_cast<double>((h1 - h0) * (w1 - w0))));
        }
    expect_near_all(dy.read(), want, half, half ? "adaptive half" : "adaptive float");
  }
}

#else  // !JETPERF_HAS_CUDA

TEST(layer_kernels, need_cuda) { GTEST_SKIP() << "not supported by this build (no CUDA)"; }

#endif  // JETPERF_HAS_CUDA
