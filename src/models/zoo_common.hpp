#pragma once
// Private helpers shared by the zoo builders of the mobile families (MobileNet, MnasNet,
// EfficientNet, ShuffleNet): torchvision's channel rounding and its composite modules.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/models/network_builder.hpp>

namespace jetperf::models::detail {

/// Conv2d options without bias (the zoo's convolutions before a BatchNorm).
inline conv_options conv(std::int64_t kernel, std::int64_t stride = 1, std::int64_t padding = 0,
                         std::int64_t groups = 1) {
  conv_options o;
  o.kernel = kernel;
  o.stride = stride;
  o.padding = padding;
  o.groups = groups;
  return o;
}

/// Conv2d options with nn.Conv2d's default bias (networks without BatchNorm: AlexNet, SqueezeNet).
inline conv_options conv_bias(std::int64_t kernel, std::int64_t stride = 1, std::int64_t padding = 0) {
  conv_options o = conv(kernel, stride, padding);
  o.bias = true;
  return o;
}

/// torchvision.models._utils._make_divisible: rounds `v` to a multiple of `divisor`, never
/// going below `min_value` (default: divisor) nor more than 10% under `v`.
inline std::int64_t make_divisible(double v, std::int64_t divisor, std::int64_t min_value = 0) {
  if (min_value <= 0) min_value = divisor;
  // int(v + divisor / 2) truncates toward zero, like Python's int() for positive v.
  const auto rounded = static_cast<std::int64_t>(v + static_cast<double>(divisor) / 2.0) / divisor * divisor;
  std::int64_t new_v = std::max(min_value, rounded);
  if (static_cast<double>(new_v) < 0.9 * v) new_v += divisor;
  return new_v;
}

/// torchvision.ops.Conv2dNormActivation at module path `path`: "<path>.0" Conv2d (bias off,
/// padding (k - 1) / 2 * dilation), "<path>.1" BatchNorm2d, "<path>.2" activation when given.
inline network_builder::value conv_norm_act(network_builder& b, const std::string& path, network_builder::value in,
                                            std::int64_t out_channels, std::int64_t kernel, std::int64_t stride,
                                            std::int64_t groups, std::optional<op_type> act, double eps = 1e-5,
                                            std::int64_t dilation = 1) {
  conv_options o;
  o.kernel = kernel;
  o.stride = stride;
  o.padding = (kernel - 1) / 2 * dilation;
  o.groups = groups;
  o.dilation = dilation;
  auto x = b.conv2d(path + ".0", in, out_channels, o);
  x = b.batch_norm(path + ".1", x, eps);
  if (act) x = b.activation(path + ".2", *act, x);
  return x;
}

/// torchvision.ops.SqueezeExcitation at `path`: avgpool, fc1 (1x1 conv with bias), activation,
/// fc2, scale_activation, then the functional `scale * input` named "<path>.mul".
inline network_builder::value squeeze_excitation(network_builder& b, const std::string& path,
                                                 network_builder::value in, std::int64_t squeeze_channels,
                                                 op_type act, op_type scale_act) {
  const std::int64_t channels = b.shape_of(in).at(0);
  conv_options fc;
  fc.bias = true;
  auto s = b.adaptive_avg_pool(path + ".avgpool", in, 1);
  s = b.conv2d(path + ".fc1", s, squeeze_channels, fc);
  s = b.activation(path + ".activation", act, s);
  s = b.conv2d(path + ".fc2", s, channels, fc);
  s = b.activation(path + ".scale_activation", scale_act, s);
  return b.mul(path + ".mul", in, s);
}

/// EfficientNet `name` ("efficientnet_b0".."efficientnet_b2") at a square input of `resolution`:
/// torchvision's published GFLOPS for B1 and B2 are at their native 240 and 288 pixels.
/// Throws std::invalid_argument for another name. Defined in zoo_efficientnet.cpp.
network build_efficientnet_at(const std::string& name, std::int64_t resolution);

}  // namespace jetperf::models::detail
