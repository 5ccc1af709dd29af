// One oneDNN primitive (or none) per op, with PyTorch's semantics: symmetric padding, ceil_mode
// as extra right padding (as PyTorch's mkldnn path does), torch's channel_shuffle order.
#include "onednn_op_plan.hpp"

#if JETPERF_HAS_ONEDNN
#include <optional>
#include <string>

namespace jetperf::workloads::onednn {

namespace {

using models::op;
using models::op_type;
using dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;
using dnnl::algorithm;
using dnnl::prop_kind;

const prop_kind inference = prop_kind::forward_inference;

void require_rank(const op& o, std::size_t rank) {
  if (o.input_shapes.empty() || o.input_shapes[0].size() != rank || o.output_shape.empty())
    throw unsupported_op(o.name + ": " + models::to_string(o.type) + " expects a rank-" + std::to_string(rank) +
                         " input");
}

// Right padding that makes oneDNN's floor-based output size equal torch's (ceil_mode included).
std::int64_t right_pad(std::int64_t in, std::int64_t out, std::int64_t kernel, std::int64_t stride,
                       std::int64_t pad_l) {
  const std::int64_t needed = (out - 1) * stride + kernel - in - pad_l;
  return needed > pad_l ? needed : pad_l;
}

dnnl::memory::desc any_of(const dnnl::memory::desc& md) { return {md.dims(), md.data_type(), tag::any}; }

// The layout of an image desc among those oneDNN's kernels write, if it is one of them.
std::optional<tag> layout_of(const dnnl::memory::desc& md) {
  if (md.dims().size() != 4) return std::nullopt;
  for (const tag t : {tag::nchw, tag::nhwc, tag::nChw16c, tag::nChw8c}) {
    if (md == dnnl::memory::desc(md.dims(), md.data_type(), t)) return t;
  }
  return std::nullopt;
}

op_plan plan_conv(const op& o, std::int64_t n, dt type, const dnnl::engine& eng) {
  require_rank(o, 3);
  const std::int64_t cin = o.input_shapes[0][0], cout = o.out_channels, g = o.groups;
  op_plan p;
  p.user_weights = g == 1 ? dnnl::memory::desc({cout, cin, o.kernel_h, o.kernel_w}, dt::f32, tag::oihw)
                          : dnnl::memory::desc({g, cout / g, cin / g, o.kernel_h, o.kernel_w}, dt::f32, tag::goihw);
  const dnnl::memory::desc wei_any(p.user_weights.dims(), type, tag::any);
  // The convolution picks its activation layouts (nhwc or nChw16c on AVX-512, plain nchw where
  // the library has nothing better); a producer in another layout is reordered, as PyTorch's
  // mkldnn convolution does for NCHW tensors.
  const dnnl::memory::desc src_any = any_of(plain_desc(o.input_shapes[0], n, type));
  const dnnl::memory::desc dst_any = any_of(plain_desc(o.output_shape, n, type));
  const dims strides{o.stride_h, o.stride_w};
  // oneDNN counts dilation from 0 (no gap), torch from 1.
  const dims dilates{o.dilation - 1, o.dilation - 1};
  const dims pad_l{o.pad_h, o.pad_w};
  const dims pad_r{
      right_pad(o.input_shapes[0][1], o.output_shape[1], (o.kernel_h - 1) * o.dilation + 1, o.stride_h, o.pad_h),
      right_pad(o.input_shapes[0][2], o.output_shape[2], (o.kernel_w - 1) * o.dilation + 1, o.stride_w, o.pad_w)};
  dnnl::convolution_forward::primitive_desc pd;
  if (o.bias) {
    p.user_bias = dnnl::memory::desc({cout}, dt::f32, tag::x);
    const dnnl::memory::desc bias({cout}, type, tag::x);
    pd = {{inference, algorithm::convolution_direct, src_any, wei_any, bias, dst_any, strides, dilates, pad_l, pad_r},
          eng};
  } else {
    pd = {{inference, algorithm::convolution_direct, src_any, wei_any, dst_any, strides, dilates, pad_l, pad_r}, eng};
  }
  p.inputs = {pd.src_desc()};
  p.dst = pd.dst_desc();
  p.pds.push_back(pd);
  return p;
}

op_plan plan_linear(const op& o, std::int64_t n, dt type, const dnnl::engine& eng) {
  require_rank(o, 1);
  const std::int64_t in = o.input_shapes[0][0], out = o.out_channels;
  op_plan p;
  p.inputs = {plain_desc(o.input_shapes[0], n, type)};
  p.dst = dnnl::memory::desc({n, out}, type, tag::nc);
  p.user_weights = dnnl::memory::desc({out, in}, dt::f32, tag::oi);
  const dnnl::memory::desc wei_any({out, in}, type, tag::any);
  if (o.bias) {
    p.user_bias = dnnl::memory::desc({out}, dt::f32, tag::x);
    dnnl::inner_product_forward::desc d(inference, p.inputs[0], wei_any, dnnl::memory::desc({out}, type, tag::x), p.dst);
    p.pds.push_back(dnnl::inner_product_forward::primitive_desc(d, eng));
  } else {
    dnnl::inner_product_forward::desc d(inference, p.inputs[0], wei_any, p.dst);
    p.pds.push_back(dnnl::inner_product_forward::primitive_desc(d, eng));
  }
  return p;
}

dnnl::primitive_desc_base eltwise(algorithm alg, const dnnl::memory::desc& md, float alpha, float beta,
                                  const dnnl::engine& eng) {
  dnnl::eltwise_forward::desc d(inference, alg, md, alpha, beta);
  return dnnl::eltwise_forward::primitive_desc(d, eng);
}

op_plan plan_pool(const op& o, const dnnl::memory::desc& src, std::int64_t n, dt type, const dnnl::engine& eng) {
  require_rank(o, 3);
  const std::int64_t h = o.input_shapes[0][1], w = o.input_shapes[0][2];
  const std::int64_t oh = o.output_shape[1], ow = o.output_shape[2];
  dims kernel, strides, pad_l, pad_r;
  algorithm alg = algorithm::pooling_max;
  if (o.type == op_type::adaptive_avg_pool) {
    // Only uniform windows are one pooling: torch's windows are [floor(i*H/o), ceil((i+1)*H/o)).
    if (h % oh != 0 || w % ow != 0)
      throw unsupported_op(o.name + ": adaptive_avg_pool " + std::to_string(h) + "x" + std::to_string(w) + " -> " +
                           std::to_string(oh) + "x" + std::to_string(ow) + " has non-uniform windows");
    kernel = {h / oh, w / ow};
    strides = kernel;
    pad_l = pad_r = {0, 0};
    alg = algorithm::pooling_avg_exclude_padding;
  } else {
    kernel = {o.kernel_h, o.kernel_w};
    strides = {o.stride_h, o.stride_w};
    pad_l = {o.pad_h, o.pad_w};
    pad_r = {right_pad(h, oh, o.kernel_h, o.stride_h, o.pad_h), right_pad(w, ow, o.kernel_w, o.stride_w, o.pad_w)};
    if (o.type == op_type::avg_pool) {
      // torch's divisor stops at the padded edge; oneDNN would count ceil_mode's overhang too.
      if (o.count_include_pad && (pad_r[0] > pad_l[0] || pad_r[1] > pad_l[1]))
        throw unsupported_op(o.name + ": avg_pool with ceil_mode overhang and count_include_pad");
      alg = o.count_include_pad ? algorithm::pooling_avg_include_padding : algorithm::pooling_avg_exclude_padding;
    }
  }
  op_plan p;
  const dnnl::memory::desc dst_any = any_of(plain_desc(o.output_shape, n, type));
  dnnl::pooling_forward::primitive_desc pd({inference, alg, src, dst_any, strides, kernel, pad_l, pad_r}, eng);
  p.inputs = {src};
  p.dst = pd.dst_desc();
  p.pds.push_back(pd);
  return p;
}

op_plan plan_binary(const op& o, const std::vector<dnnl::memory::desc>& srcs, std::int64_t n, dt type,
                    const dnnl::engine& eng) {
  if (srcs.size() != 2) throw unsupported_op(o.name + ": " + models::to_string(o.type) + " takes two inputs");
  const algorithm alg = o.type == op_type::add ? algorithm::binary_add : algorithm::binary_mul;
  op_plan p;
  // The sum is written in input 0's layout; input 1 is brought to it (a residual branch may come
  // from the block input in another layout). A scale [C, 1, 1] stays as its producer wrote it.
  p.inputs = {srcs[0], o.type == op_type::add ? srcs[0] : srcs[1]};
  try {
    p.pds.push_back(dnnl::binary::primitive_desc({alg, p.inputs[0], p.inputs[1], srcs[0]}, eng));
    p.dst = srcs[0];
  } catch (const dnnl::error&) {
    // No kernel for this layout pair: both inputs plain.
    p.inputs = {plain_desc(o.input_shapes[0], n, type), plain_desc(o.input_shapes[1], n, type)};
    p.dst = p.inputs[0];
    p.pds.assign(1, dnnl::binary::primitive_desc({alg, p.inputs[0], p.inputs[1], p.dst}, eng));
  }
  return p;
}

op_plan plan_chunk(const op& o, const dnnl::memory::desc& src, std::int64_t n, dt type, const dnnl::engine& eng) {
  require_rank(o, 3);
  if (o.groups <= 0) throw unsupported_op(o.name + ": chunk parts must be positive");
  const std::int64_t offset = models::chunk_first_channel(o);
  const dims slice_dims{n, o.output_shape[0], o.output_shape[1], o.output_shape[2]};
  op_plan p;
  p.kind = op_kind::slice;
  p.dst = plain_desc(o.output_shape, n, type);
  try {
    p.view = src.submemory_desc(slice_dims, {0, offset, 0, 0});
    p.inputs = {src};
  } catch (const dnnl::error&) {
    // A slice that cuts through a channel block (58 of nChw16c's 64): slice the plain tensor.
    p.inputs = {plain_desc(o.input_shapes[0], n, type)};
    p.view = p.inputs[0].submemory_desc(slice_dims, {0, offset, 0, 0});
  }
  // The slice keeps an nhwc producer's layout, so that the convolution after it reads it as is.
  if (layout_of(p.inputs[0]) == tag::nhwc) p.dst = dnnl::memory::desc(slice_dims, type, tag::nhwc);
  p.pds.push_back(dnnl::reorder::primitive_desc(eng, p.view, eng, p.dst));
  return p;
}

op_plan plan_concat(const op& o, const std::vector<dnnl::memory::desc>& srcs, std::int64_t n, dt type,
                    const dnnl::engine& eng) {
  // Parts in one layout: oneDNN's fast concat copies blocks, while its generic one (mixed
  // layouts) took 24 ms instead of tens of microseconds on a ShuffleNet concat. The layout is the
  // first part's when every part can take it (whole channel blocks), else nhwc, which any
  // channel count fits.
  tag target = layout_of(srcs[0]).value_or(tag::nchw);
  const std::int64_t block = target == tag::nChw16c ? 16 : target == tag::nChw8c ? 8 : 1;
  for (const auto& s : o.input_shapes) {
    if (s.size() != 3) throw unsupported_op(o.name + ": concat expects [C, H, W] inputs");
    if (s[0] % block != 0) target = tag::nhwc;
  }
  op_plan p;
  for (const auto& s : o.input_shapes) p.inputs.emplace_back(dnnl::memory::dims{n, s[0], s[1], s[2]}, type, target);
  dnnl::concat::primitive_desc pd(1, p.inputs, eng);
  p.dst = pd.dst_desc();
  p.pds.push_back(pd);
  return p;
}

}  // namespace

dnnl::memory::desc plain_desc(const models::shape& s, std::int64_t batch, dt type) {
  if (s.size() == 3) return dnnl::memory::desc({batch, s[0], s[1], s[2]}, type, tag::nchw);
  if (s.size() == 1) return dnnl::memory::desc({batch, s[0]}, type, tag::nc);
  throw unsupported_op("activations of rank " + std::to_string(s.size()) + " (expected [C, H, W] or [F])");
}

op_plan plan_op(const op& o, const std::vector<dnnl::memory::desc>& srcs, std::int64_t n, dt type,
                const dnnl::engine& eng) {
  if (srcs.empty() || srcs.size() != o.input_shapes.size())
    throw unsupported_op(o.name + ": input count does not match the op");
  const dnnl::memory::desc& src = srcs[0];
  op_plan p;
  p.inputs = {src};
  p.dst = src;
  switch (o.type) {
    case op_type::conv2d: return plan_conv(o, n, type, eng);
    case op_type::linear: return plan_linear(o, n, type, eng);
    case op_type::batch_norm:
      require_rank(o, 3);
      if (src == plain_desc(o.input_shapes[0], n, type)) {
        try {
          const dnnl::memory::desc per_channel({1, o.input_shapes[0][0], 1, 1}, dt::f32, tag::nchw);
          dnnl::post_ops po;
          po.append_binary(algorithm::binary_add, per_channel);
          dnnl::primitive_attr attr;
          attr.set_post_ops(po);
          p.pds.push_back(dnnl::binary::primitive_desc({algorithm::binary_mul, src, per_channel, src}, attr, eng));
          p.scale_shift = true;
          return p;
        } catch (const dnnl::error&) {
          p.pds.clear();  // no such kernel here: the batch norm primitive below
        }
      }
      p.pds.push_back(dnnl::batch_normalization_forward::primitive_desc(
          {inference, src, static_cast<float>(o.eps),
           dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
               dnnl::normalization_flags::use_shift},
          eng));
      return p;
    case op_type::relu: p.pds.push_back(eltwise(algorithm::eltwise_relu, src, 0.0f, 0.0f, eng)); return p;
    case op_type::relu6: p.pds.push_back(eltwise(algorithm::eltwise_clip, src, 0.0f, 6.0f, eng)); return p;
    case op_type::sigmoid: p.pds.push_back(eltwise(algorithm::eltwise_logistic, src, 0.0f, 0.0f, eng)); return p;
    case op_type::hardswish: p.pds.push_back(eltwise(algorithm::eltwise_hardswish, src, 0.0f, 0.0f, eng)); return p;
    case op_type::silu: p.pds.push_back(eltwise(algorithm::eltwise_swish, src, 1.0f, 0.0f, eng)); return p;
    case op_type::hardsigmoid:
      // oneDNN 2.6 has no hardsigmoid: relu6(x + 3) / 6 = clip(x / 6 + 0.5, 0, 1), two passes.
      p.pds.push_back(eltwise(algorithm::eltwise_linear, src, 1.0f / 6.0f, 0.5f, eng));
      p.pds.push_back(eltwise(algorithm::eltwise_clip, src, 0.0f, 1.0f, eng));
      return p;
    case op_type::max_pool:
    case op_type::avg_pool:
    case op_type::adaptive_avg_pool: return plan_pool(o, src, n, type, eng);
    case op_type::add:
    case op_type::mul: return plan_binary(o, srcs, n, type, eng);
    case op_type::concat: return plan_concat(o, srcs, n, type, eng);
    case op_type::channel_shuffle: {
      require_rank(o, 3);
      const std::int64_t c = o.input_shapes[0][0];
      if (o.groups <= 0 || c % o.groups != 0) throw unsupported_op(o.name + ": channel_shuffle groups do not divide C");
      // oneDNN views the axis as [C / G, G] and transposes it; torch views it as [g, C / g]: G = C / g.
      p.pds.push_back(dnnl::shuffle_forward::primitive_desc({inference, src, 1, static_cast<int>(c / o.groups)}, eng));
      return p;
    }
    case op_type::chunk: return plan_chunk(o, src, n, type, eng);
    case op_type::flatten:
      // A view of the plain tensor: the producer's blocked output is reordered first.
      p.kind = op_kind::alias;
      p.inputs = {plain_desc(o.input_shapes[0], n, type)};
      p.dst = plain_desc(o.output_shape, n, type);
      return p;
    case op_type::dropout:
      p.kind = op_kind::alias;
      return p;
  }
  throw unsupported_op(o.name + ": unknown op type");
}

}  // namespace jetperf::workloads::onednn
#endif
