// Linear on [N, in] through cuBLAS (cublasSgemm for float, cublasGemmEx with float accumulation
// for half), then the bias through cudnnAddTensor: y[N, out] = x[N, in] * W[out, in]^T + b.
#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDNN

#include <stdexcept>

#include <cuda_runtime_api.h>  // CUDART_VERSION

#include <jetperf/backend/layer_data.hpp>

#include "cudnn_op_runner.hpp"

namespace jetperf::workloads::cuda {

namespace {

class linear_runner final : public op_runner {
 public:
  linear_runner(const models::op& o, int op_index, const void* x, void* y, layer_context& ctx)
      : x_(x), y_(y), half_(ctx.half) {
    if (o.input_shapes.empty()) throw std::invalid_argument(o.name + ": linear without an input shape");
    in_ = to_int(models::elements(o.input_shapes[0]), "in_features");
    out_ = to_int(o.out_channels, "out_features");
    batch_ = ctx.batch;
    const op_weights wts = make_op_weights(o, op_index);
    weight_.allocate(wts.weight.size() * ctx.element_bytes());
    upload_floats(wts.weight, ctx.half, weight_.get(), ctx.stream);
    if (o.bias) {
      bias_.allocate(wts.bias.size() * ctx.element_bytes());
      upload_floats(wts.bias, ctx.half, bias_.get(), ctx.stream);
      JETPERF_CUDNN_CALL(cudnnSetTensor4dDescriptor(bd_, CUDNN_TENSOR_NCHW, ctx.data_type(), 1, out_, 1, 1));
      JETPERF_CUDNN_CALL(cudnnSetTensor4dDescriptor(yd_, CUDNN_TENSOR_NCHW, ctx.data_type(), batch_, out_, 1, 1));
    }
#if CUDART_VERSION < 11000
    // cuBLAS 10 (JetPack 4): tensor cores opt in through the handle's math mode, which would also
    // let cublasSgemm round to half; the dtype is fixed per prepared layer, so set it here, once,
    // outside the timed runs.
    JETPERF_CUBLAS_CALL(cublasSetMathMode(ctx.blas, half_ ? CUBLAS_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
#endif
  }

  void run(const layer_context& ctx) override {
    // Column-major view: W row-major [out, in] is an in x out matrix (ld in), transposed to
    // out x in; x is in x N (ld in); y is out x N (ld out), i.e. row-major [N, out].
    if (half_) {
#if CUDART_VERSION >= 11000
      const cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
      const cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT;
#else
      // cuBLAS 10: the compute type is a cudaDataType, tensor cores opt in by algorithm (and math mode).
      const cudaDataType compute = CUDA_R_32F;
      const cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
#endif
      JETPERF_CUBLAS_CALL(cublasGemmEx(ctx.blas, CUBLAS_OP_T, CUBLAS_OP_N, out_, batch_, in_, &k_one, weight_.get(),
                                       CUDA_R_16F, in_, x_, CUDA_R_16F, in_, &k_zero, y_, CUDA_R_16F, out_, compute,
                                       algo));
    } else {
      JETPERF_CUBLAS_CALL(cublasSgemm(ctx.blas, CUBLAS_OP_T, CUBLAS_OP_N, out_, batch_, in_, &k_one,
                                      static_cast<const float*>(weight_.get()), in_, static_cast<const float*>(x_),
                                      in_, &k_zero, static_cast<float*>(y_), out_));
    }
    if (bias_.get()) JETPERF_CUDNN_CALL(cudnnAddTensor(ctx.dnn, &k_one, bd_, bias_.get(), &k_one, yd_, y_));
  }

 private:
  const void* x_;
  void* y_;
  bool half_;
  int in_ = 0, out_ = 0, batch_ = 1;
  tensor_desc bd_, yd_;
  device_memory weight_, bias_;
};

}  // namespace

std::unique_ptr<op_runner> make_linear_runner(const models::op& o, int op_index, const void* x, void* y,
                                              layer_context& ctx) {
  return std::make_unique<linear_runner>(o, op_index, x, y, ctx);
}

}  // namespace jetperf::workloads::cuda

#endif  // JETPERF_HAS_CUDNN
