// Which runner family runs an op, and the descriptor helpers the families share.
#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDNN

#include "cudnn_op_runner.hpp"

#include <climits>
#include <stdexcept>
#include <string>

namespace jetperf::workloads::cuda {

const float k_one = 1.0f;
const float k_zero = 0.0f;

int to_int(std::int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX) throw std::invalid_argument(std::string(what) + " " + std::to_string(v) + " does not fit cuDNN's int");
  return static_cast<int>(v);
}

void set_nchw(const tensor_desc& d, cudnnDataType_t type, std::int64_t batch, const models::shape& s) {
  if (s.empty() || s.size() > 3) throw std::invalid_argument("cuDNN tensors are [C], [C, H] or [C, H, W] per sample");
  const int c = to_int(s[0], "channels");
  const int h = s.size() > 1 ? to_int(s[1], "height") : 1;
  const int w = s.size() > 2 ? to_int(s[2], "width") : 1;
  to_int(batch * models::elements(s), "tensor elements");
  JETPERF_CUDNN_CALL(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, type, to_int(batch, "batch"), c, h, w));
}

bool cudnn_has_activation(models::op_type t) {
  switch (t) {
    case models::op_type::relu:
    case models::op_type::relu6:
    case models::op_type::sigmoid:
      return true;
    case models::op_type::silu:
      // CUDNN_ACTIVATION_SWISH and cudnnSetActivationDescriptorSwishBeta came with cuDNN 8.2.0.
#if CUDNN_MAJOR > 8 || (CUDNN_MAJOR == 8 && CUDNN_MINOR >= 2)
      return true;
#else
      return false;
#endif
    default:
      return false;
  }
}

bool cudnn_can_pool(const models::op& o) {
  if (o.input_shapes.empty() || o.input_shapes[0].size() != 3 || o.output_shape.size() != 3) return false;
  const auto& in = o.input_shapes[0];
  if (o.type == models::op_type::adaptive_avg_pool)
    return o.output_shape[1] > 0 && o.output_shape[2] > 0 && in[1] % o.output_shape[1] == 0 &&
           in[2] % o.output_shape[2] == 0;
  if (o.type != models::op_type::max_pool && o.type != models::op_type::avg_pool) return false;
  if (o.stride_h <= 0 || o.stride_w <= 0) return false;
  // cuDNN sizes outputs like torch with ceil_mode=False; ceil_mode only matters when it adds a window.
  const std::int64_t floor_h = (in[1] + 2 * o.pad_h - o.kernel_h) / o.stride_h + 1;
  const std::int64_t floor_w = (in[2] + 2 * o.pad_w - o.kernel_w) / o.stride_w + 1;
  return floor_h == o.output_shape[1] && floor_w == o.output_shape[2];
}

std::unique_ptr<op_runner> make_op_runner(const models::op& o, int op_index, const std::vector<const void*>& inputs,
                                          void* output, layer_context& ctx) {
  if (inputs.size() != o.inputs.size() || inputs.empty())
    throw std::invalid_argument(o.name + ": " + std::to_string(inputs.size()) + " input buffers for " +
                                std::to_string(o.inputs.size()) + " inputs");
  switch (o.type) {
    case models::op_type::conv2d:
      return make_conv_runner(o, op_index, inputs[0], output, ctx);
    case models::op_type::linear:
      return make_linear_runner(o, op_index, inputs[0], output, ctx);
    case models::op_type::batch_norm:
    case models::op_type::add:
    case models::op_type::mul:
      return make_cudnn_simple_runner(o, op_index, inputs, output, ctx);
    case models::op_type::relu:
    case models::op_type::relu6:
    case models::op_type::sigmoid:
    case models::op_type::silu:
      if (cudnn_has_activation(o.type)) return make_cudnn_simple_runner(o, op_index, inputs, output, ctx);
      return make_kernel_runner(o, inputs, output, ctx);
    case models::op_type::max_pool:
    case models::op_type::avg_pool:
    case models::op_type::adaptive_avg_pool:
      if (cudnn_can_pool(o)) return make_cudnn_simple_runner(o, op_index, inputs, output, ctx);
      return make_kernel_runner(o, inputs, output, ctx);
    case models::op_type::hardswish:
    case models::op_type::hardsigmoid:
    case models::op_type::concat:
    case models::op_type::channel_shuffle:
    case models::op_type::chunk:
      return make_kernel_runner(o, inputs, output, ctx);
    case models::op_type::flatten:
    case models::op_type::dropout:
      break;
  }
  throw std::logic_error(o.name + ": " + models::to_string(o.type) + " aliases its input and has no runner");
}

}  // namespace jetperf::workloads::cuda

#endif  // JETPERF_HAS_CUDNN
