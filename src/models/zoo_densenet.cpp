// torchvision DenseNet-121: growth 32, bn_size 4, blocks (6, 12, 24, 16), 64 initial features.
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

#include <vector>

namespace jetperf::models {

namespace {

using value = network_builder::value;

constexpr std::int64_t k_growth = 32;
constexpr std::int64_t k_bn_size = 4;

/// _DenseLayer: torch.cat of every earlier feature map, then BN-ReLU-1x1 and BN-ReLU-3x3
/// (drop_rate 0, so no dropout).
value dense_layer(network_builder& b, const std::string& p, const std::vector<value>& features) {
  value x = b.concat(p + ".cat", features);
  x = b.batch_norm(p + ".norm1", x);
  x = b.activation(p + ".relu1", op_type::relu, x);
  x = b.conv2d(p + ".conv1", x, k_bn_size * k_growth, detail::conv(1));
  x = b.batch_norm(p + ".norm2", x);
  x = b.activation(p + ".relu2", op_type::relu, x);
  return b.conv2d(p + ".conv2", x, k_growth, detail::conv(3, 1, 1));
}

value dense_block(network_builder& b, const std::string& p, value x, int layers) {
  b.begin_block(p, "_DenseBlock");
  std::vector<value> features = {x};
  for (int i = 0; i < layers; ++i) {
    features.push_back(dense_layer(b, p + ".denselayer" + std::to_string(i + 1), features));
  }
  value y = b.concat(p + ".cat", features);
  b.end_block();
  return y;
}

value transition(network_builder& b, const std::string& p, value x) {
  b.begin_block(p, "_Transition");
  const std::int64_t out = b.shape_of(x).at(0) / 2;
  x = b.batch_norm(p + ".norm", x);
  x = b.activation(p + ".relu", op_type::relu, x);
  x = b.conv2d(p + ".conv", x, out, detail::conv(1));
  x = b.avg_pool(p + ".pool", x, 2, 2, 0);
  b.end_block();
  return x;
}

}  // namespace

network build_densenet121() {
  network_builder b("densenet121", {3, 224, 224});
  value x = b.conv2d("features.conv0", b.input(), 64, detail::conv(7, 2, 3));
  x = b.batch_norm("features.norm0", x);
  x = b.activation("features.relu0", op_type::relu, x);
  x = b.max_pool("features.pool0", x, 3, 2, 1);
  const int layers[4] = {6, 12, 24, 16};
  for (int i = 0; i < 4; ++i) {
    x = dense_block(b, "features.denseblock" + std::to_string(i + 1), x, layers[i]);
    if (i < 3) x = transition(b, "features.transition" + std::to_string(i + 1), x);
  }
  x = b.batch_norm("features.norm5", x);
  // forward(): F.relu, F.adaptive_avg_pool2d and torch.flatten are functional (no module),
  // so they run at the start of the classifier block.
  x = b.activation("relu", op_type::relu, x, std::string());
  x = b.adaptive_avg_pool("adaptive_avg_pool2d", x, 1, false);
  x = b.flatten("flatten", x);
  b.linear("classifier", x, 1000);
  return b.build();
}

}  // namespace jetperf::models
