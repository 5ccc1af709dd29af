// MNASNet (alpha 0.5 and 1.0) exactly as torchvision builds it (torchvision/models/mnasnet.py).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

namespace jetperf::models {
namespace {

using value = network_builder::value;

/// mnasnet._get_depths: the eight channel widths scaled by alpha. Its _round_to_multiple_of with
/// the default 0.9 round-up bias is _make_divisible.
std::vector<std::int64_t> get_depths(double alpha) {
  std::vector<std::int64_t> depths;
  for (std::int64_t d : {32, 16, 24, 40, 80, 96, 192, 320}) {
    depths.push_back(detail::make_divisible(static_cast<double>(d) * alpha, 8));
  }
  return depths;
}

using detail::conv;

/// mnasnet._InvertedResidual at `path`: its `layers` Sequential (1x1 expand, depthwise, 1x1 project).
value inverted_residual(network_builder& b, const std::string& path, value x, std::int64_t out_ch,
                        std::int64_t kernel, std::int64_t stride, std::int64_t expansion) {
  const std::int64_t in_ch = b.shape_of(x).at(0);
  const std::int64_t mid_ch = in_ch * expansion;
  const std::string l = path + ".layers.";
  value y = b.conv2d(l + "0", x, mid_ch, conv(1, 1, 0));
  y = b.batch_norm(l + "1", y);
  y = b.activation(l + "2", op_type::relu, y);
  y = b.conv2d(l + "3", y, mid_ch, conv(kernel, stride, kernel / 2, mid_ch));
  y = b.batch_norm(l + "4", y);
  y = b.activation(l + "5", op_type::relu, y);
  y = b.conv2d(l + "6", y, out_ch, conv(1, 1, 0));
  y = b.batch_norm(l + "7", y);
  if (in_ch == out_ch && stride == 1) y = b.add(path + ".add", y, x);
  return y;
}

/// mnasnet._stack: one Sequential of `repeats` inverted residuals, the first one strided.
value stack(network_builder& b, const std::string& path, value x, std::int64_t out_ch, std::int64_t kernel,
            std::int64_t stride, std::int64_t expansion, int repeats) {
  b.begin_block(path, "Sequential");
  for (int i = 0; i < repeats; ++i) {
    x = inverted_residual(b, path + "." + std::to_string(i), x, out_ch, kernel, i == 0 ? stride : 1, expansion);
  }
  b.end_block();
  return x;
}

network mnasnet(const std::string& name, double alpha) {
  const auto depths = get_depths(alpha);
  network_builder b(name, {3, 224, 224});
  // layers.0..7 and 14..16 are leaf modules of the `layers` Sequential: one block each.
  value x = b.conv2d("layers.0", b.input(), depths[0], conv(3, 2, 1));
  x = b.batch_norm("layers.1", x);
  x = b.activation("layers.2", op_type::relu, x);
  x = b.conv2d("layers.3", x, depths[0], conv(3, 1, 1, depths[0]));
  x = b.batch_norm("layers.4", x);
  x = b.activation("layers.5", op_type::relu, x);
  x = b.conv2d("layers.6", x, depths[1], conv(1, 1, 0));
  x = b.batch_norm("layers.7", x);
  x = stack(b, "layers.8", x, depths[2], 3, 2, 3, 3);
  x = stack(b, "layers.9", x, depths[3], 5, 2, 3, 3);
  x = stack(b, "layers.10", x, depths[4], 5, 2, 6, 3);
  x = stack(b, "layers.11", x, depths[5], 3, 1, 6, 2);
  x = stack(b, "layers.12", x, depths[6], 5, 2, 6, 4);
  x = stack(b, "layers.13", x, depths[7], 3, 1, 6, 1);
  x = b.conv2d("layers.14", x, 1280, conv(1, 1, 0));
  x = b.batch_norm("layers.15", x);
  x = b.activation("layers.16", op_type::relu, x);
  // forward(): x.mean([2, 3]) is functional glue and runs at the start of classifier.0.
  x = b.adaptive_avg_pool("mean", x, 1, /*is_module=*/false);
  x = b.flatten("flatten", x);
  x = b.dropout("classifier.0", x);
  b.linear("classifier.1", x, 1000);
  return b.build();
}

}  // namespace

network build_mnasnet0_5() { return mnasnet("mnasnet0_5", 0.5); }
network build_mnasnet1_0() { return mnasnet("mnasnet1_0", 1.0); }

}  // namespace jetperf::models
