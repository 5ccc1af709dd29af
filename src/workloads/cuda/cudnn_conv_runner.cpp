// Conv2d (grouped and depthwise included) through cudnnConvolutionForward with the algorithm that
// cudnnFindConvolutionForwardAlgorithmEx measures fastest on the real shapes, as PyTorch does with
// torch.backends.cudnn.benchmark = True, then the bias through cudnnAddTensor.
#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDNN

#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/backend/layer_data.hpp>

#include "cudnn_op_runner.hpp"

namespace jetperf::workloads::cuda {

namespace {

class conv_runner final : public op_runner {
 public:
  conv_runner(const models::op& o, int op_index, const void* x, void* y, layer_context& ctx) : x_(x), y_(y) {
    if (o.input_shapes.empty() || o.input_shapes[0].size() != 3 || o.output_shape.size() != 3)
      throw std::invalid_argument(o.name + ": conv2d needs [C, H, W] input and output shapes");
    const std::int64_t cin = o.input_shapes[0][0];
    if (o.groups <= 0 || cin % o.groups != 0 || o.out_channels % o.groups != 0)
      throw std::invalid_argument(o.name + ": groups do not divide the channels");
    const cudnnDataType_t dt = ctx.data_type();
    set_nchw(xd_, dt, ctx.batch, o.input_shapes[0]);
    set_nchw(yd_, dt, ctx.batch, o.output_shape);
    JETPERF_CUDNN_CALL(cudnnSetFilter4dDescriptor(wd_, dt, CUDNN_TENSOR_NCHW, to_int(o.out_channels, "out_channels"),
                                                  to_int(cin / o.groups, "in_channels"), to_int(o.kernel_h, "kernel"),
                                                  to_int(o.kernel_w, "kernel")));
    // Accumulation in float for half data too (PSEUDO_HALF_CONFIG), as PyTorch runs fp16 convs.
    JETPERF_CUDNN_CALL(cudnnSetConvolution2dDescriptor(
        cd_, to_int(o.pad_h, "padding"), to_int(o.pad_w, "padding"), to_int(o.stride_h, "stride"),
        to_int(o.stride_w, "stride"), to_int(o.dilation, "dilation"), to_int(o.dilation, "dilation"),
        CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    JETPERF_CUDNN_CALL(cudnnSetConvolutionGroupCount(cd_, to_int(o.groups, "groups")));
    // Half: tensor cores allowed. Float: CUDNN_DEFAULT_MATH, which from cuDNN 8 lets Ampere and
    // later GPUs (Orin) run float convolutions in TF32 on tensor cores, exactly PyTorch's default
    // (torch.backends.cudnn.allow_tf32 = True), so the latencies are the ones a PyTorch user sees.
    // NVIDIA_TF32_OVERRIDE=0 in the daemon's environment turns TF32 off for strict-FP32 studies.
    JETPERF_CUDNN_CALL(cudnnSetConvolutionMathType(cd_, ctx.half ? CUDNN_TENSOR_OP_MATH : CUDNN_DEFAULT_MATH));

    int n = 0, c = 0, h = 0, w = 0;
    JETPERF_CUDNN_CALL(cudnnGetConvolution2dForwardOutputDim(cd_, xd_, wd_, &n, &c, &h, &w));
    if (c != o.output_shape[0] || h != o.output_shape[1] || w != o.output_shape[2])
      throw std::invalid_argument(o.name + ": cuDNN's output [" + std::to_string(c) + ", " + std::to_string(h) +
                                  ", " + std::to_string(w) + "] differs from the op's " +
                                  models::format_shape(o.output_shape, ctx.batch));

    const op_weights wts = make_op_weights(o, op_index);
    weight_.allocate(wts.weight.size() * ctx.element_bytes());
    upload_floats(wts.weight, ctx.half, weight_.get(), ctx.stream);
    if (o.bias) {
      bias_.allocate(wts.bias.size() * ctx.element_bytes());
      upload_floats(wts.bias, ctx.half, bias_.get(), ctx.stream);
      // cudnnAddTensor wants the bias in the output's type, broadcast over N, H, W.
      JETPERF_CUDNN_CALL(cudnnSetTensor4dDescriptor(bd_, CUDNN_TENSOR_NCHW, dt, 1, c, 1, 1));
    }
    find_algorithm(o, ctx);
  }

  void run(const layer_context& ctx) override {
    JETPERF_CUDNN_CALL(cudnnConvolutionForward(ctx.dnn, &k_one, xd_, x_, wd_, weight_.get(), cd_, algo_,
                                               ctx.workspace, workspace_, &k_zero, yd_, y_));
    if (bias_.get()) JETPERF_CUDNN_CALL(cudnnAddTensor(ctx.dnn, &k_one, bd_, bias_.get(), &k_one, yd_, y_));
  }

  std::size_t workspace_bytes() const override { return workspace_; }

 private:
  void find_algorithm(const models::op& o, layer_context& ctx) {
    int max_count = 0;
    JETPERF_CUDNN_CALL(cudnnGetConvolutionForwardAlgorithmMaxCount(ctx.dnn, &max_count));
    if (max_count <= 0) max_count = 8;
    std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(static_cast<std::size_t>(max_count));
    int returned = 0;
    // Runs every algorithm that fits the search workspace on the real buffers (y is overwritten,
    // which prepare() allows) and sorts them by measured time.
    JETPERF_CUDNN_CALL(cudnnFindConvolutionForwardAlgorithmEx(ctx.dnn, xd_, x_, wd_, weight_.get(), cd_, yd_, y_,
                                                              max_count, &returned, perf.data(),
                                                              ctx.search_workspace, ctx.search_workspace_bytes));
    for (int i = 0; i < returned; ++i) {
      const auto& p = perf[static_cast<std::size_t>(i)];
      if (p.status != CUDNN_STATUS_SUCCESS || p.memory > ctx.search_workspace_bytes) continue;
      algo_ = p.algo;
      workspace_ = p.memory;
      // The measured time holds for the math type it was measured with (tensor ops or not).
      JETPERF_CUDNN_CALL(cudnnSetConvolutionMathType(cd_, p.mathType));
      return;
    }
    throw std::runtime_error(o.name + ": cuDNN found no convolution algorithm for this shape within " +
                             std::to_string(ctx.search_workspace_bytes >> 20) + " MiB of workspace");
  }

  const void* x_;
  void* y_;
  tensor_desc xd_, yd_, bd_;
  filter_desc wd_;
  conv_desc cd_;
  device_memory weight_, bias_;
  cudnnConvolutionFwdAlgo_t algo_ = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  std::size_t workspace_ = 0;
};

}  // namespace

std::unique_ptr<op_runner> make_conv_runner(const models::op& o, int op_index, const void* x, void* y,
                                            layer_context& ctx) {
  return std::make_unique<conv_runner>(o, op_index, x, y, ctx);
}

}  // namespace jetperf::workloads::cuda

#endif  // JETPERF_HAS_CUDNN
