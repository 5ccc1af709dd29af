#pragma once
// Private to the oneDNN layer backend: the primitive descriptors that run one op, created
// without memory so that supports() can probe a dtype as cheaply as prepare() builds it.
#include <jetperf/config.hpp>

#if JETPERF_HAS_ONEDNN
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include <jetperf/models/op.hpp>

namespace jetperf::workloads::onednn {

/// An op oneDNN cannot run with PyTorch's semantics (not a library failure); what() is the reason.
class unsupported_op : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class op_kind {
  primitives,  ///< pds run in order; the second and later ones in place on dst (hardsigmoid)
  alias,       ///< no primitive: dst is input 0's memory under dst's desc (flatten, dropout)
  slice,       ///< a reorder from `view`, a sub-memory of input 0 (chunk)
};

/// How one op runs. Activation layouts propagate: each primitive keeps or picks the layout that
/// is fast for it (a convolution on AVX-512 writes nhwc or nChw16c, and the batch norm, ReLU and
/// pooling after it keep that layout), and where an op needs another layout than its producer
/// wrote, `inputs` says so and the backend inserts a reorder step.
struct op_plan {
  op_kind kind = op_kind::primitives;
  std::vector<dnnl::primitive_desc_base> pds;
  std::vector<dnnl::memory::desc> inputs;  ///< per op input: the desc the op reads
  dnnl::memory::desc dst;
  /// chunk: the channel slice of input 0.
  dnnl::memory::desc view;
  /// batch_norm on a plain layout: one binary primitive, x * scale[c] with a "+ shift[c]" post-op
  /// (scale = gamma / sqrt(var + eps), shift = beta - mean * scale), because oneDNN 2.6's batch
  /// norm on nchw is a slow generic loop; other layouts use the batch norm primitive.
  bool scale_shift = false;
  /// conv2d / linear: layer_data's f32 layout of the weights and bias (bias empty when none).
  dnnl::memory::desc user_weights, user_bias;
};

/// The plain layout of a per-sample shape at `batch`: [C, H, W] -> nchw, [F] -> nc. Throws
/// unsupported_op for other ranks.
dnnl::memory::desc plain_desc(const models::shape& s, std::int64_t batch, dnnl::memory::data_type dt);

/// The plan of `o` whose inputs are in `srcs` (one desc per o.inputs, as their producers wrote
/// them). Convolution and inner-product weights use format_tag::any (reordered once in prepare).
/// Throws unsupported_op, or dnnl::error when the library refuses a descriptor (f16 on a CPU
/// without it).
op_plan plan_op(const models::op& o, const std::vector<dnnl::memory::desc>& srcs, std::int64_t batch,
                dnnl::memory::data_type dt, const dnnl::engine& eng);

}  // namespace jetperf::workloads::onednn
#endif
