// Ops the cuDNN legacy API has no call for, run by the kernels in kernels/layer_kernels.cuh.
#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDNN

#include <stdexcept>
#include <string>

#include <layer_kernels.cuh>

#include "cudnn_op_runner.hpp"

namespace jetperf::workloads::cuda {

namespace {

namespace k = ::jetperf::kernels;

k::elem_type elem_of(const layer_context& ctx) { return ctx.half ? k::elem_type::f16 : k::elem_type::f32; }

std::int64_t spatial(const models::shape& s) {
  std::int64_t hw = 1;
  for (std::size_t i = 1; i < s.size(); ++i) hw *= s[i];
  return hw;
}

class pointwise_runner final : public op_runner {
 public:
  pointwise_runner(const models::op& o, const void* x, void* y, layer_context& ctx)
      : x_(x), y_(y), t_(elem_of(ctx)), n_(ctx.batch * models::elements(o.output_shape)) {
    switch (o.type) {
      case models::op_type::hardswish: kind_ = k::pointwise_kind::hardswish; break;
      case models::op_type::hardsigmoid: kind_ = k::pointwise_kind::hardsigmoid; break;
      case models::op_type::silu: kind_ = k::pointwise_kind::silu; break;
      default: throw std::logic_error(o.name + ": no pointwise kernel for " + models::to_string(o.type));
    }
  }
  void run(const layer_context& ctx) override {
    JETPERF_CUDA_CALL(k::launch_pointwise(kind_, t_, x_, y_, n_, ctx.stream));
  }

 private:
  const void* x_;
  void* y_;
  k::elem_type t_;
  std::int64_t n_;
  k::pointwise_kind kind_ = k::pointwise_kind::silu;
};

class pool_runner final : public op_runner {
 public:
  pool_runner(const models::op& o, const void* x, void* y, layer_context& ctx) : x_(x), y_(y), t_(elem_of(ctx)) {
    const auto& in = o.input_shapes.at(0);
    if (in.size() != 3 || o.output_shape.size() != 3)
      throw std::invalid_argument(o.name + ": pooling needs [C, H, W] shapes");
    s_.batch = ctx.batch;
    s_.channels = in[0];
    s_.in_h = in[1], s_.in_w = in[2];
    s_.out_h = o.output_shape[1], s_.out_w = o.output_shape[2];
    s_.kernel_h = o.kernel_h, s_.kernel_w = o.kernel_w;
    s_.stride_h = o.stride_h, s_.stride_w = o.stride_w;
    s_.pad_h = o.pad_h, s_.pad_w = o.pad_w;
    adaptive_ = o.type == models::op_type::adaptive_avg_pool;
    kind_ = o.type == models::op_type::max_pool ? k::pool_kind::max
            : o.count_include_pad               ? k::pool_kind::avg_include_pad
                                                : k::pool_kind::avg_exclude_pad;
  }
  void run(const layer_context& ctx) override {
    if (adaptive_)
      JETPERF_CUDA_CALL(k::launch_adaptive_avg_pool2d(t_, s_, x_, y_, ctx.stream));
    else
      JETPERF_CUDA_CALL(k::launch_pool2d(kind_, t_, s_, x_, y_, ctx.stream));
  }

 private:
  const void* x_;
  void* y_;
  k::elem_type t_;
  k::pool_shape s_;
  bool adaptive_ = false;
  k::pool_kind kind_ = k::pool_kind::max;
};

// torch.cat(dim=1) as one channel copy per part; a chunk as one copy of its slice.
class channel_copy_runner final : public op_runner {
 public:
  struct part {
    const void* src;
    std::int64_t src_channels, src_first, dst_first, channels;
  };
  channel_copy_runner(const models::op& o, const std::vector<const void*>& inputs, void* y, layer_context& ctx)
      : y_(y), t_(elem_of(ctx)), batch_(ctx.batch), dst_channels_(o.output_shape.at(0)),
        hw_(spatial(o.output_shape)) {
    if (o.type == models::op_type::chunk) {
      const std::int64_t c = o.input_shapes.at(0).at(0);
      const std::int64_t first = models::chunk_first_channel(o);
      if (o.groups <= 0 || first + dst_channels_ > c)
        throw std::invalid_argument(o.name + ": chunk " + std::to_string(o.chunk_index) + " of " +
                                    std::to_string(o.groups) + " is not inside " + std::to_string(c) + " channels");
      parts_.push_back({inputs.at(0), c, first, 0, dst_channels_});
      return;
    }
    std::int64_t at = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const std::int64_t c = o.input_shapes.at(i).at(0);
      parts_.push_back({inputs[i], c, 0, at, c});
      at += c;
    }
    if (at != dst_channels_) throw std::invalid_argument(o.name + ": concat parts do not add up to the output");
  }
  void run(const layer_context& ctx) override {
    for (const part& p : parts_)
      JETPERF_CUDA_CALL(k::launch_channel_copy(t_, p.src, p.src_channels, p.src_first, y_, dst_channels_,
                                               p.dst_first, p.channels, batch_, hw_, ctx.stream));
  }

 private:
  void* y_;
  k::elem_type t_;
  std::int64_t batch_, dst_channels_, hw_;
  std::vector<part> parts_;
};

class shuffle_runner final : public op_runner {
 public:
  shuffle_runner(const models::op& o, const void* x, void* y, layer_context& ctx)
      : x_(x), y_(y), t_(elem_of(ctx)), batch_(ctx.batch), channels_(o.output_shape.at(0)), groups_(o.groups),
        hw_(spatial(o.output_shape)) {
    if (groups_ <= 0 || channels_ % groups_ != 0)
      throw std::invalid_argument(o.name + ": " + std::to_string(groups_) + " groups do not divide " +
                                  std::to_string(channels_) + " channels");
  }
  void run(const layer_context& ctx) override {
    JETPERF_CUDA_CALL(k::launch_channel_shuffle(t_, x_, y_, batch_, channels_, groups_, hw_, ctx.stream));
  }

 private:
  const void* x_;
  void* y_;
  k::elem_type t_;
  std::int64_t batch_, channels_, groups_, hw_;
};

}  // namespace

std::unique_ptr<op_runner> make_kernel_runner(const models::op& o, const std::vector<const void*>& inputs,
                                              void* output, layer_context& ctx) {
  switch (o.type) {
    case models::op_type::hardswish:
    case models::op_type::hardsigmoid:
    case models::op_type::silu:
      return std::make_unique<pointwise_runner>(o, inputs.at(0), output, ctx);
    case models::op_type::max_pool:
    case models::op_type::avg_pool:
    case models::op_type::adaptive_avg_pool:
      return std::make_unique<pool_runner>(o, inputs.at(0), output, ctx);
    case models::op_type::concat:
    case models::op_type::chunk:
      return std::make_unique<channel_copy_runner>(o, inputs, output, ctx);
    case models::op_type::channel_shuffle:
      return std::make_unique<shuffle_runner>(o, inputs.at(0), output, ctx);
    default:
      throw std::logic_error(o.name + ": no kernel runs " + models::to_string(o.type));
  }
}

}  // namespace jetperf::workloads::cuda

#endif  // JETPERF_HAS_CUDNN
