// RegNetX / RegNetY as torchvision's models/regnet.py builds them: the per-stage widths and
// depths come from BlockParams.from_init_params (quantized linear widths in log space, computed
// in float32 as torch does), then SimpleStemIN, four AnyStages of ResBottleneckBlocks, avgpool, fc.
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

/// The arguments of torchvision's BlockParams.from_init_params (bottleneck_multiplier is 1.0
/// for every zoo RegNet; se_ratio 0 means no squeeze-excitation, i.e. RegNetX).
struct regnet_config {
  const char* name;
  int depth;
  int w_0;
  float w_a;
  float w_m;
  std::int64_t group_width;
  double se_ratio;
};

struct stage_params {
  std::int64_t depth = 0;
  std::int64_t width = 0;
  std::int64_t group_width = 0;
};

constexpr std::int64_t k_stem_width = 32;
constexpr std::int64_t k_quant = 8;
constexpr std::int64_t k_stage_stride = 2;
constexpr double k_bottleneck_multiplier = 1.0;

/// Python's round(): half to even, as std::nearbyint in the default rounding mode.
std::int64_t round_half_even(double v) { return static_cast<std::int64_t>(std::nearbyint(v)); }

/// BlockParams.from_init_params followed by _adjust_widths_groups_compatibilty.
std::vector<stage_params> stages_from_init_params(const regnet_config& c) {
  if (c.w_a < 0 || c.w_0 <= 0 || c.w_m <= 1 || c.w_0 % 8 != 0 || c.depth <= 0) {
    throw std::invalid_argument(std::string(c.name) + ": invalid RegNet settings");
  }
  // torch computes the block widths on float32 tensors (arange(depth) * w_a + w_0 promotes to
  // the default dtype) and rounds half to even; doing the same keeps boundary cases identical.
  const float w_0 = static_cast<float>(c.w_0);
  const float log_w_m = static_cast<float>(std::log(static_cast<double>(c.w_m)));
  std::vector<std::int64_t> block_widths;
  for (int i = 0; i < c.depth; ++i) {
    const float width_cont = static_cast<float>(i) * c.w_a + w_0;
    const float capacity = std::nearbyint(std::log(width_cont / w_0) / log_w_m);
    const float width = w_0 * std::pow(c.w_m, capacity);
    block_widths.push_back(static_cast<std::int64_t>(std::nearbyint(width / static_cast<float>(k_quant))) * k_quant);
  }

  // A stage is a run of equal block widths (the widths never decrease, so runs are distinct).
  std::vector<stage_params> stages;
  for (std::int64_t w : block_widths) {
    if (stages.empty() || stages.back().width != w) stages.push_back({0, w, c.group_width});
    ++stages.back().depth;
  }

  // Group widths larger than the bottleneck shrink to it, and bottleneck widths round to a
  // multiple of the group width.
  for (stage_params& s : stages) {
    const auto w_bot = static_cast<std::int64_t>(static_cast<double>(s.width) * k_bottleneck_multiplier);
    s.group_width = std::min(s.group_width, w_bot);
    const std::int64_t ws_bot = detail::make_divisible(static_cast<double>(w_bot), s.group_width);
    s.width = static_cast<std::int64_t>(static_cast<double>(ws_bot) / k_bottleneck_multiplier);
  }
  return stages;
}

using value = network_builder::value;

/// Conv2dNormActivation with BatchNorm2d and, when `relu`, a ReLU.
value conv_norm_act(network_builder& b, const std::string& path, value in, std::int64_t out_channels,
                    std::int64_t kernel, std::int64_t stride, std::int64_t groups, bool relu) {
  return detail::conv_norm_act(b, path, in, out_channels, kernel, stride, groups,
                               relu ? std::optional<op_type>(op_type::relu) : std::nullopt);
}

/// ResBottleneckBlock: forward evaluates proj(x) before f(x), then adds and applies the ReLU.
value res_bottleneck_block(network_builder& b, const std::string& path, value in, std::int64_t width_out,
                           std::int64_t stride, std::int64_t group_width, double se_ratio) {
  const std::int64_t width_in = b.shape_of(in).at(0);
  value shortcut = in;
  if (width_in != width_out || stride != 1) {
    shortcut = conv_norm_act(b, path + ".proj", in, width_out, 1, stride, 1, false);
  }
  // BottleneckTransform: w_b = round(width_out * bottleneck_multiplier), g = w_b // group_width.
  const std::int64_t w_b = round_half_even(static_cast<double>(width_out) * k_bottleneck_multiplier);
  const std::int64_t groups = w_b / group_width;
  value f = conv_norm_act(b, path + ".f.a", in, w_b, 1, 1, 1, true);
  f = conv_norm_act(b, path + ".f.b", f, w_b, 3, stride, groups, true);
  if (se_ratio > 0) {
    // The SE reduction is relative to the block's input width, not the bottleneck width.
    f = detail::squeeze_excitation(b, path + ".f.se", f, round_half_even(se_ratio * static_cast<double>(width_in)),
                                   op_type::relu, op_type::sigmoid);
  }
  f = conv_norm_act(b, path + ".f.c", f, width_out, 1, 1, 1, false);
  value x = b.add(path + ".add", shortcut, f);
  return b.activation(path + ".activation", op_type::relu, x);
}

network build_regnet(const regnet_config& c) {
  const std::vector<stage_params> stages = stages_from_init_params(c);
  network_builder b(c.name, {3, 224, 224});

  // SimpleStemIN is a Conv2dNormActivation: its three children are blocks of their own.
  value x = conv_norm_act(b, "stem", b.input(), k_stem_width, 3, 2, 1, true);

  for (std::size_t s = 0; s < stages.size(); ++s) {
    const std::string stage_name = "block" + std::to_string(s + 1);
    const std::string stage_path = "trunk_output." + stage_name;
    b.begin_block(stage_path, "AnyStage");
    for (std::int64_t i = 0; i < stages[s].depth; ++i) {
      x = res_bottleneck_block(b, stage_path + "." + stage_name + "-" + std::to_string(i), x, stages[s].width,
                               i == 0 ? k_stage_stride : 1, stages[s].group_width, c.se_ratio);
    }
    b.end_block();
  }

  x = b.adaptive_avg_pool("avgpool", x, 1);
  x = b.flatten("flatten", x);
  b.linear("fc", x, 1000);
  return b.build();
}

}  // namespace

network build_regnet_y_400mf() { return build_regnet({"regnet_y_400mf", 16, 48, 27.89f, 2.09f, 8, 0.25}); }
network build_regnet_y_800mf() { return build_regnet({"regnet_y_800mf", 14, 56, 38.84f, 2.4f, 16, 0.25}); }
network build_regnet_y_1_6gf() { return build_regnet({"regnet_y_1_6gf", 27, 48, 20.71f, 2.65f, 24, 0.25}); }
network build_regnet_x_400mf() { return build_regnet({"regnet_x_400mf", 22, 24, 24.48f, 2.54f, 16, 0.0}); }
network build_regnet_x_800mf() { return build_regnet({"regnet_x_800mf", 16, 56, 35.73f, 2.28f, 16, 0.0}); }
network build_regnet_x_3_2gf() { return build_regnet({"regnet_x_3_2gf", 25, 88, 26.31f, 2.25f, 48, 0.0}); }

}  // namespace jetperf::models
