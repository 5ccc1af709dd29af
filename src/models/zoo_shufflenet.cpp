// ShuffleNetV2 x0.5 and x1.0 exactly as torchvision builds them (torchvision/models/shufflenetv2.py).
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_common.hpp"

namespace jetperf::models {
namespace {

using value = network_builder::value;

using detail::conv;

/// shufflenetv2.InvertedResidual at `path`. Stride 2 runs branch1 and branch2 on the whole input;
/// stride 1 splits the input in two halves (x.chunk(2, dim=1)) and runs branch2 on the second.
/// Either way the halves are concatenated and channel-shuffled over 2 groups.
value inverted_residual(network_builder& b, const std::string& path, value x, std::int64_t oup, std::int64_t stride) {
  const std::int64_t inp = b.shape_of(x).at(0);
  const std::int64_t branch_features = oup / 2;
  value left = x;
  value right_in = x;
  if (stride > 1) {
    const std::string b1 = path + ".branch1.";
    left = b.conv2d(b1 + "0", x, inp, conv(3, stride, 1, inp));
    left = b.batch_norm(b1 + "1", left);
    left = b.conv2d(b1 + "2", left, branch_features, conv(1, 1, 0));
    left = b.batch_norm(b1 + "3", left);
    left = b.activation(b1 + "4", op_type::relu, left);
  } else {
    // One torch call yields both halves; the graph has one op per half.
    left = b.chunk(path + ".chunk", x, 2, 0);
    right_in = b.chunk(path + ".chunk#2", x, 2, 1);
  }
  const std::string b2 = path + ".branch2.";
  value right = b.conv2d(b2 + "0", right_in, branch_features, conv(1, 1, 0));
  right = b.batch_norm(b2 + "1", right);
  right = b.activation(b2 + "2", op_type::relu, right);
  right = b.conv2d(b2 + "3", right, branch_features, conv(3, stride, 1, branch_features));
  right = b.batch_norm(b2 + "4", right);
  right = b.conv2d(b2 + "5", right, branch_features, conv(1, 1, 0));
  right = b.batch_norm(b2 + "6", right);
  right = b.activation(b2 + "7", op_type::relu, right);
  value out = b.concat(path + ".cat", {left, right});
  return b.channel_shuffle(path + ".channel_shuffle", out, 2);
}

network shufflenet_v2(const std::string& name, const std::vector<std::int64_t>& stage_out_channels) {
  const std::vector<int> stages_repeats = {4, 8, 4};
  network_builder b(name, {3, 224, 224});
  // conv1 and conv5 are Sequentials of leaf modules: each module is a block of its own.
  value x = b.conv2d("conv1.0", b.input(), stage_out_channels[0], conv(3, 2, 1));
  x = b.batch_norm("conv1.1", x);
  x = b.activation("conv1.2", op_type::relu, x);
  x = b.max_pool("maxpool", x, 3, 2, 1);
  for (int s = 0; s < 3; ++s) {
    const std::string stage = "stage" + std::to_string(s + 2);
    const std::int64_t out = stage_out_channels[static_cast<std::size_t>(s) + 1];
    for (int i = 0; i < stages_repeats[static_cast<std::size_t>(s)]; ++i) {
      const std::string path = stage + "." + std::to_string(i);
      b.begin_block(path, "InvertedResidual");
      x = inverted_residual(b, path, x, out, i == 0 ? 2 : 1);
      b.end_block();
    }
  }
  x = b.conv2d("conv5.0", x, stage_out_channels[4], conv(1, 1, 0));
  x = b.batch_norm("conv5.1", x);
  x = b.activation("conv5.2", op_type::relu, x);
  // forward(): x.mean([2, 3]) is functional glue and runs at the start of fc.
  x = b.adaptive_avg_pool("mean", x, 1, /*is_module=*/false);
  x = b.flatten("flatten", x);
  b.linear("fc", x, 1000);
  return b.build();
}

}  // namespace

network build_shufflenet_v2_x0_5() { return shufflenet_v2("shufflenet_v2_x0_5", {24, 48, 96, 192, 1024}); }
network build_shufflenet_v2_x1_0() { return shufflenet_v2("shufflenet_v2_x1_0", {24, 116, 232, 464, 1024}); }

}  // namespace jetperf::models
