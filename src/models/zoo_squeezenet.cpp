// torchvision SqueezeNet 1.0: Fire modules, ceil-mode max pools, a 1x1-conv classifier.
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

namespace jetperf::models {

namespace {

using value = network_builder::value;

value fire(network_builder& b, const std::string& p, value x, std::int64_t squeeze, std::int64_t e1,
           std::int64_t e3) {
  b.begin_block(p, "Fire");
  value s = b.conv2d(p + ".squeeze", x, squeeze, detail::conv_bias(1));
  s = b.activation(p + ".squeeze_activation", op_type::relu, s);
  value a = b.conv2d(p + ".expand1x1", s, e1, detail::conv_bias(1));
  a = b.activation(p + ".expand1x1_activation", op_type::relu, a);
  value c = b.conv2d(p + ".expand3x3", s, e3, detail::conv_bias(3, 1, 1));
  c = b.activation(p + ".expand3x3_activation", op_type::relu, c);
  value y = b.concat(p + ".cat", {a, c});
  b.end_block();
  return y;
}

}  // namespace

network build_squeezenet1_0() {
  network_builder b("squeezenet1_0", {3, 224, 224});
  value x = b.conv2d("features.0", b.input(), 96, detail::conv_bias(7, 2));
  x = b.activation("features.1", op_type::relu, x);
  x = b.max_pool("features.2", x, 3, 2, 0, true);
  x = fire(b, "features.3", x, 16, 64, 64);
  x = fire(b, "features.4", x, 16, 64, 64);
  x = fire(b, "features.5", x, 32, 128, 128);
  x = b.max_pool("features.6", x, 3, 2, 0, true);
  x = fire(b, "features.7", x, 32, 128, 128);
  x = fire(b, "features.8", x, 48, 192, 192);
  x = fire(b, "features.9", x, 48, 192, 192);
  x = fire(b, "features.10", x, 64, 256, 256);
  x = b.max_pool("features.11", x, 3, 2, 0, true);
  x = fire(b, "features.12", x, 64, 256, 256);
  x = b.dropout("classifier.0", x);
  x = b.conv2d("classifier.1", x, 1000, detail::conv_bias(1));
  x = b.activation("classifier.2", op_type::relu, x);
  x = b.adaptive_avg_pool("classifier.3", x, 1);
  // forward() ends in torch.flatten, which the seed runs as a layer of its own (an nn.Flatten).
  b.begin_block("flatten", "Flatten");
  b.flatten("flatten", x);
  b.end_block();
  return b.build();
}

}  // namespace jetperf::models
