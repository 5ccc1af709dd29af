// EfficientNet B0, B1, B2 exactly as torchvision builds them (torchvision/models/efficientnet.py).
// The classifier's dropout probability (0.2, 0.2, 0.3) does not show: Dropout is identity here.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

namespace jetperf::models {
namespace {

using detail::conv_norm_act;
using detail::make_divisible;
using value = network_builder::value;

/// torchvision's MBConvConfig after its width and depth scaling.
struct mbconv_config {
  std::int64_t expand_ratio, kernel, stride, input_channels, out_channels, num_layers;
};

mbconv_config scaled(std::int64_t expand_ratio, std::int64_t kernel, std::int64_t stride, std::int64_t in,
                     std::int64_t out, std::int64_t layers, double width_mult, double depth_mult) {
  // MBConvConfig.adjust_channels / adjust_depth.
  return {expand_ratio,
          kernel,
          stride,
          make_divisible(static_cast<double>(in) * width_mult, 8),
          make_divisible(static_cast<double>(out) * width_mult, 8),
          static_cast<std::int64_t>(std::ceil(static_cast<double>(layers) * depth_mult))};
}

/// MBConv at `path`: expand (ratio != 1), depthwise, squeeze-excitation, project, then
/// StochasticDepth (identity at inference) and the residual add when shapes allow.
value mbconv(network_builder& b, const std::string& path, value x, const mbconv_config& cnf) {
  const std::string blk = path + ".block.";
  const bool residual = cnf.stride == 1 && cnf.input_channels == cnf.out_channels;
  const std::int64_t expanded = make_divisible(static_cast<double>(cnf.input_channels * cnf.expand_ratio), 8);
  value y = x;
  int k = 0;
  if (expanded != cnf.input_channels) {
    y = conv_norm_act(b, blk + std::to_string(k++), y, expanded, 1, 1, 1, op_type::silu);
  }
  y = conv_norm_act(b, blk + std::to_string(k++), y, expanded, cnf.kernel, cnf.stride, expanded, op_type::silu);
  const std::int64_t squeeze = std::max<std::int64_t>(1, cnf.input_channels / 4);
  y = detail::squeeze_excitation(b, blk + std::to_string(k++), y, squeeze, op_type::silu, op_type::sigmoid);
  y = conv_norm_act(b, blk + std::to_string(k++), y, cnf.out_channels, 1, 1, 1, std::nullopt);
  if (residual) {
    y = b.dropout(path + ".stochastic_depth", y);
    y = b.add(path + ".add", y, x);
  }
  return y;
}

network efficientnet(const std::string& name, double width_mult, double depth_mult, std::int64_t resolution) {
  const auto conf = [&](std::int64_t e, std::int64_t k, std::int64_t s, std::int64_t in, std::int64_t out,
                        std::int64_t n) { return scaled(e, k, s, in, out, n, width_mult, depth_mult); };
  const std::vector<mbconv_config> setting = {
      conf(1, 3, 1, 32, 16, 1), conf(6, 3, 2, 16, 24, 2),  conf(6, 5, 2, 24, 40, 2),  conf(6, 3, 2, 40, 80, 3),
      conf(6, 5, 1, 80, 112, 3), conf(6, 5, 2, 112, 192, 4), conf(6, 3, 1, 192, 320, 1),
  };
  // B0..B4 use nn.BatchNorm2d's default eps (only B5..B7 pass eps=0.001).
  network_builder b(name, {3, resolution, resolution});

  b.begin_block("features.0", "Conv2dNormActivation");
  value x = conv_norm_act(b, "features.0", b.input(), setting.front().input_channels, 3, 2, 1, op_type::silu);
  b.end_block();

  int stage_index = 1;
  for (const auto& cnf : setting) {
    const std::string stage = "features." + std::to_string(stage_index++);
    // Each stage is one nn.Sequential of MBConv: one block at the block granularity.
    b.begin_block(stage, "Sequential");
    for (std::int64_t i = 0; i < cnf.num_layers; ++i) {
      mbconv_config block_cnf = cnf;
      if (i > 0) {
        block_cnf.input_channels = block_cnf.out_channels;
        block_cnf.stride = 1;
      }
      x = mbconv(b, stage + "." + std::to_string(i), x, block_cnf);
    }
    b.end_block();
  }

  const std::int64_t lastconv_out = 4 * setting.back().out_channels;
  const std::string last = "features." + std::to_string(stage_index);
  b.begin_block(last, "Conv2dNormActivation");
  x = conv_norm_act(b, last, x, lastconv_out, 1, 1, 1, op_type::silu);
  b.end_block();

  x = b.adaptive_avg_pool("avgpool", x, 1);
  x = b.flatten("flatten", x);  // torch.flatten runs at the start of classifier.0
  x = b.dropout("classifier.0", x);
  b.linear("classifier.1", x, 1000);
  return b.build();
}

}  // namespace

namespace detail {

network build_efficientnet_at(const std::string& name, std::int64_t resolution) {
  if (name == "efficientnet_b0") return efficientnet(name, 1.0, 1.0, resolution);
  if (name == "efficientnet_b1") return efficientnet(name, 1.0, 1.1, resolution);
  if (name == "efficientnet_b2") return efficientnet(name, 1.1, 1.2, resolution);
  throw std::invalid_argument("build_efficientnet_at: unknown variant '" + name + "'");
}

}  // namespace detail

network build_efficientnet_b0() { return detail::build_efficientnet_at("efficientnet_b0", 224); }
network build_efficientnet_b1() { return detail::build_efficientnet_at("efficientnet_b1", 224); }
network build_efficientnet_b2() { return detail::build_efficientnet_at("efficientnet_b2", 224); }

}  // namespace jetperf::models
