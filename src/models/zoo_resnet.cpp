// torchvision ResNet 18/34 (BasicBlock) and 50/101 (Bottleneck with the stride on conv2, v1.5).
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

namespace jetperf::models {

namespace {

using value = network_builder::value;

/// The block's identity branch: downsample.0 (1x1 conv) and downsample.1 when shapes change.
value identity(network_builder& b, const std::string& p, value x, std::int64_t out, std::int64_t stride) {
  if (stride == 1 && b.shape_of(x).at(0) == out) return x;
  value d = b.conv2d(p + ".downsample.0", x, out, detail::conv(1, stride));
  return b.batch_norm(p + ".downsample.1", d);
}

value basic_block(network_builder& b, const std::string& p, value x, std::int64_t planes, std::int64_t stride) {
  b.begin_block(p, "BasicBlock");
  value y = b.conv2d(p + ".conv1", x, planes, detail::conv(3, stride, 1));
  y = b.batch_norm(p + ".bn1", y);
  y = b.activation(p + ".relu", op_type::relu, y);
  y = b.conv2d(p + ".conv2", y, planes, detail::conv(3, 1, 1));
  y = b.batch_norm(p + ".bn2", y);
  // torchvision runs downsample after bn2; the block's one ReLU module is called twice.
  value id = identity(b, p, x, planes, stride);
  y = b.add(p + ".add", y, id);
  y = b.activation(p + ".relu", op_type::relu, y);
  b.end_block();
  return y;
}

value bottleneck(network_builder& b, const std::string& p, value x, std::int64_t planes, std::int64_t stride) {
  b.begin_block(p, "Bottleneck");
  value y = b.conv2d(p + ".conv1", x, planes, detail::conv(1));
  y = b.batch_norm(p + ".bn1", y);
  y = b.activation(p + ".relu", op_type::relu, y);
  y = b.conv2d(p + ".conv2", y, planes, detail::conv(3, stride, 1));
  y = b.batch_norm(p + ".bn2", y);
  y = b.activation(p + ".relu", op_type::relu, y);
  y = b.conv2d(p + ".conv3", y, planes * 4, detail::conv(1));
  y = b.batch_norm(p + ".bn3", y);
  value id = identity(b, p, x, planes * 4, stride);
  y = b.add(p + ".add", y, id);
  y = b.activation(p + ".relu", op_type::relu, y);
  b.end_block();
  return y;
}

network resnet(const std::string& name, bool bottleneck_blocks, const int (&layers)[4]) {
  network_builder b(name, {3, 224, 224});
  value x = b.conv2d("conv1", b.input(), 64, detail::conv(7, 2, 3));
  x = b.batch_norm("bn1", x);
  x = b.activation("relu", op_type::relu, x);
  x = b.max_pool("maxpool", x, 3, 2, 1);
  const std::int64_t planes[4] = {64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage) {
    for (int i = 0; i < layers[stage]; ++i) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(i);
      const std::int64_t stride = (stage > 0 && i == 0) ? 2 : 1;
      x = bottleneck_blocks ? bottleneck(b, p, x, planes[stage], stride) : basic_block(b, p, x, planes[stage], stride);
    }
  }
  x = b.adaptive_avg_pool("avgpool", x, 1);
  x = b.flatten("flatten", x);
  b.linear("fc", x, 1000);
  return b.build();
}

}  // namespace

network build_resnet18() { return resnet("resnet18", false, {2, 2, 2, 2}); }
network build_resnet34() { return resnet("resnet34", false, {3, 4, 6, 3}); }
network build_resnet50() { return resnet("resnet50", true, {3, 4, 6, 3}); }
network build_resnet101() { return resnet("resnet101", true, {3, 4, 23, 3}); }

}  // namespace jetperf::models
