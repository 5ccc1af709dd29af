// The ops that are one cuDNN legacy call: batch norm (inference), activations, pooling that
// cuDNN's windows express, the residual add and the squeeze-excitation multiply.
#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDNN

#include <stdexcept>
#include <string>

#include <jetperf/backend/layer_data.hpp>

#include "cudnn_op_runner.hpp"

namespace jetperf::workloads::cuda {

namespace {

class batch_norm_runner final : public op_runner {
 public:
  batch_norm_runner(const models::op& o, int op_index, const void* x, void* y, layer_context& ctx)
      : x_(x), y_(y), eps_(o.eps) {  // eps >= CUDNN_BN_MIN_EPSILON: checked by supports()
    set_nchw(xd_, ctx.data_type(), ctx.batch, o.input_shapes.at(0));
    // Scale, bias, mean and variance stay float for half data: the derived descriptor says so.
    JETPERF_CUDNN_CALL(cudnnDeriveBNTensorDescriptor(bnd_, xd_, CUDNN_BATCHNORM_SPATIAL));
    const op_weights w = make_op_weights(o, op_index);
    const std::size_t c = w.weight.size();
    params_.allocate(4 * c * sizeof(float));
    float* base = static_cast<float*>(params_.get());
    upload_floats(w.weight, false, base, ctx.stream);
    upload_floats(w.bias, false, base + c, ctx.stream);
    upload_floats(w.running_mean, false, base + 2 * c, ctx.stream);
    upload_floats(w.running_var, false, base + 3 * c, ctx.stream);
    scale_ = base, bias_ = base + c, mean_ = base + 2 * c, var_ = base + 3 * c;
  }

  void run(const layer_context& ctx) override {
    JETPERF_CUDNN_CALL(cudnnBatchNormalizationForwardInference(ctx.dnn, CUDNN_BATCHNORM_SPATIAL, &k_one, &k_zero,
                                                               xd_, x_, xd_, y_, bnd_, scale_, bias_, mean_, var_,
                                                               eps_));
  }

 private:
  const void* x_;
  void* y_;
  double eps_;
  tensor_desc xd_, bnd_;
  device_memory params_;
  const float *scale_ = nullptr, *bias_ = nullptr, *mean_ = nullptr, *var_ = nullptr;
};

class activation_runner final : public op_runner {
 public:
  activation_runner(const models::op& o, const void* x, void* y, layer_context& ctx) : x_(x), y_(y) {
    set_nchw(xd_, ctx.data_type(), ctx.batch, o.output_shape);
    switch (o.type) {
      case models::op_type::relu:
        JETPERF_CUDNN_CALL(cudnnSetActivationDescriptor(ad_, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
        break;
      case models::op_type::relu6:
        JETPERF_CUDNN_CALL(cudnnSetActivationDescriptor(ad_, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_PROPAGATE_NAN, 6.0));
        break;
      case models::op_type::sigmoid:
        JETPERF_CUDNN_CALL(cudnnSetActivationDescriptor(ad_, CUDNN_ACTIVATION_SIGMOID, CUDNN_PROPAGATE_NAN, 0.0));
        break;
#if CUDNN_MAJOR > 8 || (CUDNN_MAJOR == 8 && CUDNN_MINOR >= 2)
      case models::op_type::silu:  // x * sigmoid(beta x) with beta 1
        JETPERF_CUDNN_CALL(cudnnSetActivationDescriptor(ad_, CUDNN_ACTIVATION_SWISH, CUDNN_PROPAGATE_NAN, 0.0));
        JETPERF_CUDNN_CALL(cudnnSetActivationDescriptorSwishBeta(ad_, 1.0));
        break;
#endif
      default:
        throw std::logic_error(o.name + ": " + models::to_string(o.type) + " is not a cuDNN activation here");
    }
  }

  void run(const layer_context& ctx) override {
    JETPERF_CUDNN_CALL(cudnnActivationForward(ctx.dnn, ad_, &k_one, xd_, x_, &k_zero, xd_, y_));
  }

 private:
  const void* x_;
  void* y_;
  tensor_desc xd_;
  activation_desc ad_;
};

class pooling_runner final : public op_runner {
 public:
  pooling_runner(const models::op& o, const void* x, void* y, layer_context& ctx) : x_(x), y_(y) {
    const auto& in = o.input_shapes.at(0);
    set_nchw(xd_, ctx.data_type(), ctx.batch, in);
    set_nchw(yd_, ctx.data_type(), ctx.batch, o.output_shape);
    cudnnPoolingMode_t mode = CUDNN_POOLING_MAX;
    std::int64_t kh = o.kernel_h, kw = o.kernel_w, sh = o.stride_h, sw = o.stride_w, ph = o.pad_h, pw = o.pad_w;
    if (o.type == models::op_type::avg_pool) {
      mode = o.count_include_pad ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                 : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    } else if (o.type == models::op_type::adaptive_avg_pool) {
      // Uniform windows (cudnn_can_pool checked the sizes divide): an ordinary average pool.
      mode = CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
      kh = sh = in[1] / o.output_shape[1];
      kw = sw = in[2] / o.output_shape[2];
      ph = pw = 0;
    }
    JETPERF_CUDNN_CALL(cudnnSetPooling2dDescriptor(pd_, mode, CUDNN_PROPAGATE_NAN, to_int(kh, "kernel"),
                                                   to_int(kw, "kernel"), to_int(ph, "padding"), to_int(pw, "padding"),
                                                   to_int(sh, "stride"), to_int(sw, "stride")));
    int n = 0, c = 0, h = 0, w = 0;
    JETPERF_CUDNN_CALL(cudnnGetPooling2dForwardOutputDim(pd_, xd_, &n, &c, &h, &w));
    if (h != o.output_shape[1] || w != o.output_shape[2])
      throw std::invalid_argument(o.name + ": cuDNN's pooling output " + std::to_string(h) + "x" + std::to_string(w) +
                                  " differs from the op's " + models::format_shape(o.output_shape, ctx.batch));
  }

  void run(const layer_context& ctx) override {
    JETPERF_CUDNN_CALL(cudnnPoolingForward(ctx.dnn, pd_, &k_one, xd_, x_, &k_zero, yd_, y_));
  }

 private:
  const void* x_;
  void* y_;
  tensor_desc xd_, yd_;
  pooling_desc pd_;
};

// add: y = a + b (equal shapes); mul: y = x * s with s [C, 1, 1] broadcast over H, W. Both in
// float arithmetic for half data too.
class op_tensor_runner final : public op_runner {
 public:
  op_tensor_runner(const models::op& o, const std::vector<const void*>& inputs, void* y, layer_context& ctx) : y_(y) {
    if (inputs.size() != 2 || o.input_shapes.size() != 2)
      throw std::invalid_argument(o.name + ": " + models::to_string(o.type) + " takes two inputs");
    // A must have the output's shape; B may be the broadcast one (the SE scale), whichever input it is.
    const std::size_t ia = o.input_shapes[0] == o.output_shape ? 0 : 1;
    a_ = inputs[ia];
    b_ = inputs[1 - ia];
    set_nchw(ad_, ctx.data_type(), ctx.batch, o.input_shapes[ia]);
    set_nchw(bd_, ctx.data_type(), ctx.batch, o.input_shapes[1 - ia]);
    set_nchw(yd_, ctx.data_type(), ctx.batch, o.output_shape);
    JETPERF_CUDNN_CALL(cudnnSetOpTensorDescriptor(
        od_, o.type == models::op_type::mul ? CUDNN_OP_TENSOR_MUL : CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT,
        CUDNN_PROPAGATE_NAN));
  }

  void run(const layer_context& ctx) override {
    JETPERF_CUDNN_CALL(cudnnOpTensor(ctx.dnn, od_, &k_one, ad_, a_, &k_one, bd_, b_, &k_zero, yd_, y_));
  }

 private:
  const void* a_ = nullptr;
  const void* b_ = nullptr;
  void* y_;
  tensor_desc ad_, bd_, yd_;
  op_tensor_desc od_;
};

}  // namespace

std::unique_ptr<op_runner> make_cudnn_simple_runner(const models::op& o, int op_index,
                                                    const std::vector<const void*>& inputs, void* output,
                                                    layer_context& ctx) {
  switch (o.type) {
    case models::op_type::batch_norm:
      return std::make_unique<batch_norm_runner>(o, op_index, inputs.at(0), output, ctx);
    case models::op_type::relu:
    case models::op_type::relu6:
    case models::op_type::sigmoid:
    case models::op_type::silu:
      return std::make_unique<activation_runner>(o, inputs.at(0), output, ctx);
    case models::op_type::max_pool:
    case models::op_type::avg_pool:
    case models::op_type::adaptive_avg_pool:
      return std::make_unique<pooling_runner>(o, inputs.at(0), output, ctx);
    case models::op_type::add:
    case models::op_type::mul:
      return std::make_unique<op_tensor_runner>(o, inputs, output, ctx);
    default:
      throw std::logic_error(o.name + ": " + models::to_string(o.type) + " is not a single cuDNN call");
  }
}

}  // namespace jetperf::workloads::cuda

#endif  // JETPERF_HAS_CUDNN
