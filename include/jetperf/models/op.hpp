#pragma once
// One operation of a network as torchvision runs it at inference: a leaf module call
// (Conv2d, BatchNorm2d, ReLU, ...) or a functional step of a forward() (the residual add,
// torch.flatten, the squeeze-excitation multiply, channel_shuffle, torch.cat).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jetperf::models {

enum class op_type {
  conv2d,             ///< Conv2d, grouped and depthwise included
  linear,             ///< Linear on [N, F]
  batch_norm,         ///< BatchNorm2d in inference (running statistics)
  relu,
  relu6,
  sigmoid,
  hardswish,
  hardsigmoid,
  silu,
  max_pool,           ///< MaxPool2d (ceil_mode as torchvision sets it)
  avg_pool,           ///< AvgPool2d
  adaptive_avg_pool,  ///< AdaptiveAvgPool2d / F.adaptive_avg_pool2d / x.mean([2, 3]) (keeps H, W = out)
  add,                ///< elementwise sum of two equal shapes (residual connections)
  mul,                ///< x * s with s [C, 1, 1] broadcast over H, W (squeeze-excitation scale)
  concat,             ///< torch.cat along channels
  channel_shuffle,    ///< ShuffleNet's view-transpose-view over `groups`
  chunk,              ///< x.chunk(groups, dim=1)[chunk_index]: one channel slice (ShuffleNet's split)
  flatten,            ///< torch.flatten(x, 1) / the mean's squeeze: [C, H, W] -> [C*H*W]
  dropout,            ///< Dropout / StochasticDepth: identity at inference
};

/// The name a layer table and the JSON network schema use ("conv2d", "batch_norm", ...).
std::string to_string(op_type type);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<op_type> parse_op_type(const std::string& name);
/// Every type, in declaration order (for listings and error messages).
const std::vector<op_type>& all_op_types();

/// Shapes exclude the batch dimension: [C, H, W] for images, [F] for features.
using shape = std::vector<std::int64_t>;

/// Where an op reads from: the network input or an earlier op's output.
constexpr int k_network_input = -1;

struct op {
  std::string name;           ///< torchvision module path ("layer1.0.conv1") or "<block>.add" for functional steps
  op_type type = op_type::relu;
  std::vector<int> inputs;    ///< indices of earlier ops, or k_network_input
  std::vector<shape> input_shapes;
  shape output_shape;

  // Attributes (those that apply to the type; the rest keep their defaults).
  std::int64_t out_channels = 0;  ///< conv2d; out_features for linear
  std::int64_t kernel_h = 1, kernel_w = 1;
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t pad_h = 0, pad_w = 0;
  std::int64_t dilation = 1;
  std::int64_t groups = 1;        ///< conv2d groups; channel_shuffle groups; chunk parts
  std::int64_t chunk_index = 0;   ///< chunk: which slice
  bool bias = false;              ///< conv2d / linear
  bool ceil_mode = false;         ///< max_pool / avg_pool
  bool count_include_pad = true;  ///< avg_pool
  double eps = 1e-5;              ///< batch_norm

  /// The module this op calls, for the functional layer count ("" for functional steps).
  /// Several ops may share one module (a ResNet block's single ReLU is called three times).
  std::string module;

  std::int64_t params = 0;  ///< learnable parameters (torch's numel over parameters(), buffers excluded)
  std::int64_t macs = 0;    ///< multiply-accumulates per sample (conv2d and linear; 0 elsewhere)
  std::int64_t flops = 0;   ///< floating-point operations per sample (2 MACs for conv/linear, 1 per element elsewhere)
};

/// The first input channel a chunk op reads: torch.chunk cuts ceil(C / parts) channels per slice.
std::int64_t chunk_first_channel(const op& o);

/// Elements of a shape (batch excluded).
std::int64_t elements(const shape& s);
/// "[1, 3, 224, 224]": the shape with the batch dimension in front.
std::string format_shape(const shape& s, std::int64_t batch);
/// "[3, 224, 224]": the shape as it is (per sample).
std::string format_shape(const shape& s);

}  // namespace jetperf::models
