// Plain loops for every op type, written to mirror PyTorch's CPU kernels' definitions.
#include <jetperf/workloads/detail/reference_ops.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace jetperf::workloads::detail {

namespace {

using models::op;
using models::op_type;

struct dims4 {
  std::int64_t c = 1, h = 1, w = 1;
};

dims4 dims_of(const models::shape& s) {
  dims4 d;
  if (!s.empty()) d.c = s[0];
  if (s.size() > 1) d.h = s[1];
  if (s.size() > 2) d.w = s[2];
  return d;
}

void require(bool ok, const op& o, const char* what) {
  if (!ok) throw std::invalid_argument(o.name + ": " + what);
}

void conv2d(const op& o, std::int64_t n, const float* x, const op_weights& wt, float* y) {
  const dims4 in = dims_of(o.input_shapes[0]), out = dims_of(o.output_shape);
  const std::int64_t cin_g = in.c / o.groups, cout_g = out.c / o.groups;
  const std::int64_t kh = o.kernel_h, kw = o.kernel_w;
  require(static_cast<std::int64_t>(wt.weight.size()) == out.c * cin_g * kh * kw, o, "conv2d weight size");
  for (std::int64_t b = 0; b < n; ++b) {
    for (std::int64_t oc = 0; oc < out.c; ++oc) {
      const std::int64_t g = oc / cout_g;
      float* plane = y + (b * out.c + oc) * out.h * out.w;
      std::fill(plane, plane + out.h * out.w, wt.bias.empty() ? 0.0f : wt.bias[static_cast<std::size_t>(oc)]);
      for (std::int64_t ic = 0; ic < cin_g; ++ic) {
        const float* src = x + (b * in.c + g * cin_g + ic) * in.h * in.w;
        for (std::int64_t ky = 0; ky < kh; ++ky) {
          for (std::int64_t kx = 0; kx < kw; ++kx) {
            const float wv = wt.weight[static_cast<std::size_t>(((oc * cin_g + ic) * kh + ky) * kw + kx)];
            for (std::int64_t oy = 0; oy < out.h; ++oy) {
              const std::int64_t iy = oy * o.stride_h - o.pad_h + ky * o.dilation;
              if (iy < 0 || iy >= in.h) continue;
              for (std::int64_t ox = 0; ox < out.w; ++ox) {
                const std::int64_t ix = ox * o.stride_w - o.pad_w + kx * o.dilation;
                if (ix < 0 || ix >= in.w) continue;
                plane[oy * out.w + ox] += wv * src[iy * in.w + ix];
              }
            }
          }
        }
      }
    }
  }
}

void linear(const op& o, std::int64_t n, const float* x, const op_weights& wt, float* y) {
  const std::int64_t in = models::elements(o.input_shapes[0]), out = o.out_channels;
  require(static_cast<std::int64_t>(wt.weight.size()) == in * out, o, "linear weight size");
  for (std::int64_t b = 0; b < n; ++b) {
    for (std::int64_t j = 0; j < out; ++j) {
      double acc = wt.bias.empty() ? 0.0 : wt.bias[static_cast<std::size_t>(j)];
      const float* row = wt.weight.data() + j * in;
      for (std::int64_t k = 0; k < in; ++k) acc += static_cast<double>(row[k]) * x[b * in + k];
      y[b * out + j] = static_cast<float>(acc);
    }
  }
}

void batch_norm(const op& o, std::int64_t n, const float* x, const op_weights& wt, float* y) {
  const dims4 d = dims_of(o.input_shapes[0]);
  require(static_cast<std::int64_t>(wt.weight.size()) == d.c && wt.bias.size() == wt.weight.size() &&
              wt.running_mean.size() == wt.weight.size() && wt.running_var.size() == wt.weight.size(),
          o, "batch_norm parameter sizes");
  const std::int64_t hw = d.h * d.w;
  for (std::int64_t b = 0; b < n; ++b) {
    for (std::int64_t c = 0; c < d.c; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      const float scale = wt.weight[ci] / std::sqrt(wt.running_var[ci] + static_cast<float>(o.eps));
      const float* src = x + (b * d.c + c) * hw;
      float* dst = y + (b * d.c + c) * hw;
      for (std::int64_t i = 0; i < hw; ++i) dst[i] = (src[i] - wt.running_mean[ci]) * scale + wt.bias[ci];
    }
  }
}

float relu6(float v) { return std::min(std::max(v, 0.0f), 6.0f); }

float activate(op_type t, float v) {
  switch (t) {
    case op_type::relu: return std::max(v, 0.0f);
    case op_type::relu6: return relu6(v);
    case op_type::sigmoid: return 1.0f / (1.0f + std::exp(-v));
    case op_type::hardswish: return v * relu6(v + 3.0f) / 6.0f;
    case op_type::hardsigmoid: return relu6(v + 3.0f) / 6.0f;
    case op_type::silu: return v / (1.0f + std::exp(-v));
    default: return v;
  }
}

void max_pool(const op& o, std::int64_t n, const float* x, float* y) {
  const dims4 in = dims_of(o.input_shapes[0]), out = dims_of(o.output_shape);
  for (std::int64_t p = 0; p < n * in.c; ++p) {
    const float* src = x + p * in.h * in.w;
    float* dst = y + p * out.h * out.w;
    for (std::int64_t oy = 0; oy < out.h; ++oy) {
      const std::int64_t y0 = std::max<std::int64_t>(oy * o.stride_h - o.pad_h, 0);
      const std::int64_t y1 = std::min(oy * o.stride_h - o.pad_h + o.kernel_h, in.h);
      for (std::int64_t ox = 0; ox < out.w; ++ox) {
        const std::int64_t x0 = std::max<std::int64_t>(ox * o.stride_w - o.pad_w, 0);
        const std::int64_t x1 = std::min(ox * o.stride_w - o.pad_w + o.kernel_w, in.w);
        // Padding is -inf for max pooling, so only real elements count.
        float m = -std::numeric_limits<float>::infinity();
        for (std::int64_t iy = y0; iy < y1; ++iy)
          for (std::int64_t ix = x0; ix < x1; ++ix) m = std::max(m, src[iy * in.w + ix]);
        dst[oy * out.w + ox] = m;
      }
    }
  }
}

void avg_pool(const op& o, std::int64_t n, const float* x, float* y) {
  const dims4 in = dims_of(o.input_shapes[0]), out = dims_of(o.output_shape);
  for (std::int64_t p = 0; p < n * in.c; ++p) {
    const float* src = x + p * in.h * in.w;
    float* dst = y + p * out.h * out.w;
    for (std::int64_t oy = 0; oy < out.h; ++oy) {
      std::int64_t y0 = oy * o.stride_h - o.pad_h;
      std::int64_t y1 = std::min(y0 + o.kernel_h, in.h + o.pad_h);
      const std::int64_t pool_h = y1 - y0;
      y0 = std::max<std::int64_t>(y0, 0);
      y1 = std::min(y1, in.h);
      for (std::int64_t ox = 0; ox < out.w; ++ox) {
        std::int64_t x0 = ox * o.stride_w - o.pad_w;
        std::int64_t x1 = std::min(x0 + o.kernel_w, in.w + o.pad_w);
        const std::int64_t pool_w = x1 - x0;
        x0 = std::max<std::int64_t>(x0, 0);
        x1 = std::min(x1, in.w);
        // torch divides by the window clipped to the padded input (not to the ceil_mode overhang).
        const std::int64_t divisor = o.count_include_pad ? pool_h * pool_w : (y1 - y0) * (x1 - x0);
        double sum = 0.0;
        for (std::int64_t iy = y0; iy < y1; ++iy)
          for (std::int64_t ix = x0; ix < x1; ++ix) sum += src[iy * in.w + ix];
        dst[oy * out.w + ox] = divisor > 0 ? static_cast<float>(sum / static_cast<double>(divisor)) : 0.0f;
      }
    }
  }
}

void adaptive_avg_pool(const op& o, std::int64_t n, const float* x, float* y) {
  const dims4 in = dims_of(o.input_shapes[0]), out = dims_of(o.output_shape);
  for (std::int64_t p = 0; p < n * in.c; ++p) {
    const float* src = x + p * in.h * in.w;
    float* dst = y + p * out.h * out.w;
    for (std::int64_t oy = 0; oy < out.h; ++oy) {
      const std::int64_t y0 = oy * in.h / out.h, y1 = ((oy + 1) * in.h + out.h - 1) / out.h;
      for (std::int64_t ox = 0; ox < out.w; ++ox) {
        const std::int64_t x0 = ox * in.w / out.w, x1 = ((ox + 1) * in.w + out.w - 1) / out.w;
        double sum = 0.0;
        for (std::int64_t iy = y0; iy < y1; ++iy)
          for (std::int64_t ix = x0; ix < x1; ++ix) sum += src[iy * in.w + ix];
        dst[oy * out.w + ox] = static_cast<float>(sum / static_cast<double>((y1 - y0) * (x1 - x0)));
      }
    }
  }
}

void mul(const op& o, std::int64_t n, const float* x, const float* s, float* y) {
  const std::int64_t xe = models::elements(o.input_shapes[0]), se = models::elements(o.input_shapes[1]);
  const dims4 d = dims_of(o.input_shapes[0]);
  if (se == xe) {
    for (std::int64_t i = 0; i < n * xe; ++i) y[i] = x[i] * s[i];
    return;
  }
  require(se == d.c, o, "mul scale must be [C, 1, 1] or the input's shape");
  const std::int64_t hw = d.h * d.w;
  for (std::int64_t p = 0; p < n * d.c; ++p)
    for (std::int64_t i = 0; i < hw; ++i) y[p * hw + i] = x[p * hw + i] * s[p];
}

void concat(const op& o, std::int64_t n, const std::vector<const float*>& parts, float* y) {
  const std::int64_t out_per_sample = models::elements(o.output_shape);
  for (std::int64_t b = 0; b < n; ++b) {
    float* dst = y + b * out_per_sample;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::int64_t e = models::elements(o.input_shapes[k]);
      dst = std::copy(parts[k] + b * e, parts[k] + (b + 1) * e, dst);
    }
  }
}

void channel_shuffle(const op& o, std::int64_t n, const float* x, float* y) {
  const dims4 d = dims_of(o.input_shapes[0]);
  const std::int64_t g = o.groups, per = d.c / g, hw = d.h * d.w;
  // view(N, g, C/g, H, W).transpose(1, 2): output channel j*g + i is input channel i*(C/g) + j.
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t i = 0; i < g; ++i)
      for (std::int64_t j = 0; j < per; ++j) {
        const float* src = x + (b * d.c + i * per + j) * hw;
        std::copy(src, src + hw, y + (b * d.c + j * g + i) * hw);
      }
}

void chunk(const op& o, std::int64_t n, const float* x, float* y) {
  const dims4 in = dims_of(o.input_shapes[0]);
  const std::int64_t hw = in.h * in.w, out_c = o.output_shape[0];
  const std::int64_t offset = models::chunk_first_channel(o);
  require(offset + out_c <= in.c, o, "chunk slice outside the input");
  for (std::int64_t b = 0; b < n; ++b) {
    const float* src = x + (b * in.c + offset) * hw;
    std::copy(src, src + out_c * hw, y + b * out_c * hw);
  }
}

}  // namespace

void run_reference_op(const op& o, std::int64_t batch, const std::vector<const float*>& inputs, const op_weights& w,
                      std::vector<float>& out) {
  require(inputs.size() == o.inputs.size() && o.input_shapes.size() == o.inputs.size() && !inputs.empty(), o,
          "input count does not match the op");
  require(batch > 0, o, "batch must be positive");
  out.assign(static_cast<std::size_t>(batch * models::elements(o.output_shape)), 0.0f);
  const float* x = inputs[0];
  float* y = out.data();
  const std::int64_t in_elems = batch * models::elements(o.input_shapes[0]);
  switch (o.type) {
    case op_type::conv2d:
      require(o.groups > 0 && o.input_shapes[0].size() == 3 && o.output_shape.size() == 3, o, "conv2d shapes");
      conv2d(o, batch, x, w, y);
      break;
    case op_type::linear: linear(o, batch, x, w, y); break;
    case op_type::batch_norm: batch_norm(o, batch, x, w, y); break;
    case op_type::relu:
    case op_type::relu6:
    case op_type::sigmoid:
    case op_type::hardswish:
    case op_type::hardsigmoid:
    case op_type::silu:
      for (std::int64_t i = 0; i < in_elems; ++i) y[i] = activate(o.type, x[i]);
      break;
    case op_type::max_pool: max_pool(o, batch, x, y); break;
    case op_type::avg_pool: avg_pool(o, batch, x, y); break;
    case op_type::adaptive_avg_pool: adaptive_avg_pool(o, batch, x, y); break;
    case op_type::add:
      require(inputs.size() == 2, o, "add takes two inputs");
      for (std::int64_t i = 0; i < in_elems; ++i) y[i] = x[i] + inputs[1][i];
      break;
    case op_type::mul:
      require(inputs.size() == 2, o, "mul takes two inputs");
      mul(o, batch, x, inputs[1], y);
      break;
    case op_type::concat: concat(o, batch, inputs, y); break;
    case op_type::channel_shuffle:
      require(o.groups > 0 && o.input_shapes[0][0] % o.groups == 0, o, "channel_shuffle groups");
      channel_shuffle(o, batch, x, y);
      break;
    case op_type::chunk:
      require(o.groups > 0, o, "chunk parts");
      chunk(o, batch, x, y);
      break;
    case op_type::flatten:
    case op_type::dropout: std::copy(x, x + in_elems, y); break;
  }
}

}  // namespace jetperf::workloads::detail
