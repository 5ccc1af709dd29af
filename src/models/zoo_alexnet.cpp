// torchvision AlexNet: features (13 modules), avgpool to 6x6, flatten, classifier (7 modules).
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

namespace jetperf::models {

network build_alexnet() {
  network_builder b("alexnet", {3, 224, 224});
  auto x = b.conv2d("features.0", b.input(), 64, detail::conv_bias(11, 4, 2));
  x = b.activation("features.1", op_type::relu, x);
  x = b.max_pool("features.2", x, 3, 2, 0);
  x = b.conv2d("features.3", x, 192, detail::conv_bias(5, 1, 2));
  x = b.activation("features.4", op_type::relu, x);
  x = b.max_pool("features.5", x, 3, 2, 0);
  x = b.conv2d("features.6", x, 384, detail::conv_bias(3, 1, 1));
  x = b.activation("features.7", op_type::relu, x);
  x = b.conv2d("features.8", x, 256, detail::conv_bias(3, 1, 1));
  x = b.activation("features.9", op_type::relu, x);
  x = b.conv2d("features.10", x, 256, detail::conv_bias(3, 1, 1));
  x = b.activation("features.11", op_type::relu, x);
  x = b.max_pool("features.12", x, 3, 2, 0);
  x = b.adaptive_avg_pool("avgpool", x, 6);
  x = b.flatten("flatten", x);
  x = b.dropout("classifier.0", x);
  x = b.linear("classifier.1", x, 4096);
  x = b.activation("classifier.2", op_type::relu, x);
  x = b.dropout("classifier.3", x);
  x = b.linear("classifier.4", x, 4096);
  x = b.activation("classifier.5", op_type::relu, x);
  b.linear("classifier.6", x, 1000);
  return b.build();
}

}  // namespace jetperf::models
