// MobileNetV2 and MobileNetV3 (large, small) exactly as torchvision builds them
// (torchvision/models/mobilenetv2.py, mobilenetv3.py), width multiplier 1.0.
#include <algorithm>
#include <optional>
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

network mobilenet_v2() {
  network_builder b("mobilenet_v2", {3, 224, 224});
  const double width_mult = 1.0;
  const std::int64_t round_nearest = 8;
  struct stage {
    std::int64_t t, c, n, s;  // expand ratio, channels, repeats, first stride
  };
  const std::vector<stage> setting = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                      {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
  std::int64_t input_channel = make_divisible(32 * width_mult, round_nearest);
  const std::int64_t last_channel = make_divisible(1280 * std::max(1.0, width_mult), round_nearest);

  b.begin_block("features.0", "Conv2dNormActivation");
  value x = conv_norm_act(b, "features.0", b.input(), input_channel, 3, 2, 1, op_type::relu6);
  b.end_block();

  int index = 1;
  for (const auto& st : setting) {
    const std::int64_t output_channel = make_divisible(static_cast<double>(st.c) * width_mult, round_nearest);
    for (std::int64_t i = 0; i < st.n; ++i, ++index) {
      const std::int64_t stride = i == 0 ? st.s : 1;
      const std::string path = "features." + std::to_string(index);
      // hidden_dim = int(round(inp * expand_ratio)): exact for integer ratios.
      const std::int64_t hidden = input_channel * st.t;
      const bool residual = stride == 1 && input_channel == output_channel;
      b.begin_block(path, "InvertedResidual");
      value y = x;
      int k = 0;
      if (st.t != 1) {
        y = conv_norm_act(b, path + ".conv." + std::to_string(k++), y, hidden, 1, 1, 1, op_type::relu6);
      }
      y = conv_norm_act(b, path + ".conv." + std::to_string(k++), y, hidden, 3, stride, hidden, op_type::relu6);
      y = b.conv2d(path + ".conv." + std::to_string(k++), y, output_channel, conv_options{});
      y = b.batch_norm(path + ".conv." + std::to_string(k++), y);
      if (residual) y = b.add(path + ".add", x, y);
      b.end_block();
      x = y;
      input_channel = output_channel;
    }
  }

  const std::string last = "features." + std::to_string(index);
  b.begin_block(last, "Conv2dNormActivation");
  x = conv_norm_act(b, last, x, last_channel, 1, 1, 1, op_type::relu6);
  b.end_block();
  // forward(): nn.functional.adaptive_avg_pool2d + torch.flatten run at the start of classifier.0.
  x = b.adaptive_avg_pool("adaptive_avg_pool2d", x, 1, /*is_module=*/false);
  x = b.flatten("flatten", x);
  x = b.dropout("classifier.0", x);
  b.linear("classifier.1", x, 1000);
  return b.build();
}

/// torchvision's InvertedResidualConfig (width_mult 1.0 already applied by the caller).
struct v3_config {
  std::int64_t input_channels, kernel, expanded_channels, out_channels;
  bool use_se;
  bool use_hs;  // Hardswish, else ReLU
  std::int64_t stride;
};

v3_config bneck(std::int64_t in, std::int64_t kernel, std::int64_t expanded, std::int64_t out, bool se,
                const char* act, std::int64_t stride) {
  const double width_mult = 1.0;
  return {make_divisible(static_cast<double>(in) * width_mult, 8), kernel,
          make_divisible(static_cast<double>(expanded) * width_mult, 8),
          make_divisible(static_cast<double>(out) * width_mult, 8), se, std::string(act) == "HS", stride};
}

network mobilenet_v3(const std::string& name, const std::vector<v3_config>& setting, std::int64_t last_channel) {
  // norm_layer = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
  const double eps = 0.001;
  network_builder b(name, {3, 224, 224});

  b.begin_block("features.0", "Conv2dNormActivation");
  value x = conv_norm_act(b, "features.0", b.input(), setting.front().input_channels, 3, 2, 1, op_type::hardswish,
                          eps);
  b.end_block();

  int index = 1;
  for (const auto& cnf : setting) {
    const std::string path = "features." + std::to_string(index++);
    const std::string blk = path + ".block.";
    const op_type act = cnf.use_hs ? op_type::hardswish : op_type::relu;
    const bool residual = cnf.stride == 1 && cnf.input_channels == cnf.out_channels;
    b.begin_block(path, "InvertedResidual");
    value y = x;
    int k = 0;
    if (cnf.expanded_channels != cnf.input_channels) {
      y = conv_norm_act(b, blk + std::to_string(k++), y, cnf.expanded_channels, 1, 1, 1, act, eps);
    }
    y = conv_norm_act(b, blk + std::to_string(k++), y, cnf.expanded_channels, cnf.kernel, cnf.stride,
                      cnf.expanded_channels, act, eps);
    if (cnf.use_se) {
      const std::int64_t squeeze = make_divisible(static_cast<double>(cnf.expanded_channels / 4), 8);
      y = detail::squeeze_excitation(b, blk + std::to_string(k++), y, squeeze, op_type::relu, op_type::hardsigmoid);
    }
    y = conv_norm_act(b, blk + std::to_string(k++), y, cnf.out_channels, 1, 1, 1, std::nullopt, eps);
    if (residual) y = b.add(path + ".add", x, y);
    b.end_block();
    x = y;
  }

  const std::int64_t lastconv_in = setting.back().out_channels;
  const std::int64_t lastconv_out = 6 * lastconv_in;
  const std::string last = "features." + std::to_string(index);
  b.begin_block(last, "Conv2dNormActivation");
  x = conv_norm_act(b, last, x, lastconv_out, 1, 1, 1, op_type::hardswish, eps);
  b.end_block();

  x = b.adaptive_avg_pool("avgpool", x, 1);
  x = b.flatten("flatten", x);  // torch.flatten runs at the start of classifier.0
  x = b.linear("classifier.0", x, last_channel);
  x = b.activation("classifier.1", op_type::hardswish, x);
  x = b.dropout("classifier.2", x);
  b.linear("classifier.3", x, 1000);
  return b.build();
}

}  // namespace

network build_mobilenet_v2() { return mobilenet_v2(); }

network build_mobilenet_v3_large() {
  const std::vector<v3_config> setting = {
      bneck(16, 3, 16, 16, false, "RE", 1),    bneck(16, 3, 64, 24, false, "RE", 2),
      bneck(24, 3, 72, 24, false, "RE", 1),    bneck(24, 5, 72, 40, true, "RE", 2),
      bneck(40, 5, 120, 40, true, "RE", 1),    bneck(40, 5, 120, 40, true, "RE", 1),
      bneck(40, 3, 240, 80, false, "HS", 2),   bneck(80, 3, 200, 80, false, "HS", 1),
      bneck(80, 3, 184, 80, false, "HS", 1),   bneck(80, 3, 184, 80, false, "HS", 1),
      bneck(80, 3, 480, 112, true, "HS", 1),   bneck(112, 3, 672, 112, true, "HS", 1),
      bneck(112, 5, 672, 160, true, "HS", 2),  bneck(160, 5, 960, 160, true, "HS", 1),
      bneck(160, 5, 960, 160, true, "HS", 1),
  };
  return mobilenet_v3("mobilenet_v3_large", setting, make_divisible(1280 * 1.0, 8));
}

network build_mobilenet_v3_small() {
  const std::vector<v3_config> setting = {
      bneck(16, 3, 16, 16, true, "RE", 2),   bneck(16, 3, 72, 24, false, "RE", 2),
      bneck(24, 3, 88, 24, false, "RE", 1),  bneck(24, 5, 96, 40, true, "HS", 2),
      bneck(40, 5, 240, 40, true, "HS", 1),  bneck(40, 5, 240, 40, true, "HS", 1),
      bneck(40, 5, 120, 48, true, "HS", 1),  bneck(48, 5, 144, 48, true, "HS", 1),
      bneck(48, 5, 288, 96, true, "HS", 2),  bneck(96, 5, 576, 96, true, "HS", 1),
      bneck(96, 5, 576, 96, true, "HS", 1),
  };
  return mobilenet_v3("mobilenet_v3_small", setting, make_divisible(1024 * 1.0, 8));
}

}  // namespace jetperf::models
