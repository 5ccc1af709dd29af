#pragma once
// One op of a layer on the GPU: descriptors, weights and the chosen algorithm are set up once when
// the runner is built (prepare), run() only enqueues work on the layer's stream. Include only where
// JETPERF_HAS_CUDNN.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <jetperf/models/op.hpp>

#include "cudnn_descriptors.hpp"
#include <jetperf/cuda/cuda_device_memory.hpp>

namespace jetperf::workloads::cuda {

/// What every runner of one layer shares.
struct layer_context {
  cudnnHandle_t dnn = nullptr;
  cublasHandle_t blas = nullptr;
  cudaStream_t stream = nullptr;
  bool half = false;  ///< elements are __half (else float)
  int batch = 1;
  /// Scratch for cudnnFindConvolutionForwardAlgorithmEx while runners are built.
  void* search_workspace = nullptr;
  std::size_t search_workspace_bytes = 0;
  /// The workspace run() may use: the largest any runner asked for.
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;

  cudnnDataType_t data_type() const { return half ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT; }
  std::size_t element_bytes() const { return half ? 2 : 4; }
};

class op_runner {
 public:
  virtual ~op_runner() = default;
  /// Enqueues the op on ctx.stream.
  virtual void run(const layer_context& ctx) = 0;
  /// Workspace bytes run() needs (the chosen convolution algorithm's).
  virtual std::size_t workspace_bytes() const { return 0; }
};

/// The runner of `o` (network op `op_index`, whose weights layer_data.hpp gives) reading `inputs`
/// (device pointers, one per o.inputs) and writing `output`. flatten and dropout have no runner
/// (their output aliases the input): asking for one is a programming error (std::logic_error).
std::unique_ptr<op_runner> make_op_runner(const models::op& o, int op_index, const std::vector<const void*>& inputs,
                                          void* output, layer_context& ctx);

// Families (one file each).
std::unique_ptr<op_runner> make_conv_runner(const models::op& o, int op_index, const void* x, void* y,
                                            layer_context& ctx);
std::unique_ptr<op_runner> make_linear_runner(const models::op& o, int op_index, const void* x, void* y,
                                              layer_context& ctx);
/// batch_norm, relu/relu6/sigmoid/silu (SWISH from cuDNN 8.2), pooling cuDNN can express, add, mul.
std::unique_ptr<op_runner> make_cudnn_simple_runner(const models::op& o, int op_index,
                                                    const std::vector<const void*>& inputs, void* output,
                                                    layer_context& ctx);
/// Ops run by kernels/: hardswish, hardsigmoid, silu (old cuDNN), ceil_mode / adaptive pooling,
/// concat, chunk, channel_shuffle.
std::unique_ptr<op_runner> make_kernel_runner(const models::op& o, const std::vector<const void*>& inputs,
                                              void* output, layer_context& ctx);

/// True when cuDNN's activation modes cover `t` in this build (relu, relu6, sigmoid; silu from 8.2).
bool cudnn_has_activation(models::op_type t);
/// True when cudnnPoolingForward computes `o` exactly (no ceil_mode extra window, uniform adaptive windows).
bool cudnn_can_pool(const models::op& o);

/// NCHW descriptor of a per-sample shape ([C, H, W] or [F] as [F, 1, 1]) at `batch`; throws
/// std::invalid_argument for other ranks or sizes beyond int.
void set_nchw(const tensor_desc& d, cudnnDataType_t type, std::int64_t batch, const models::shape& s);
/// int of a size, or std::invalid_argument naming `what`.
int to_int(std::int64_t v, const char* what);

/// 1 and 0 as cuDNN's scaling factors for half and float data (float host values).
extern const float k_one;
extern const float k_zero;

}  // namespace jetperf::workloads::cuda
