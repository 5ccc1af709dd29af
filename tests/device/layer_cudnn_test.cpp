// The cuDNN layer backend against the plain C++ reference on small shapes: every op type, the
// pooling cases that need kernels/ (ceil_mode, non-uniform adaptive windows), and whole blocks
// (ResNet bottleneck, squeeze-excitation, ShuffleNet unit), in float and half.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/config.hpp>
#include <jetperf/models/network_builder.hpp>
#include <jetperf/workloads/cuda_plugin.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#if JETPERF_HAS_CUDA
#include <jetperf/cuda/cuda_gemm.hpp>
#endif

using namespace jetperf;
using namespace jetperf::workloads;
using models::network_builder;
using models::op_type;

namespace {

using value = network_builder::value;

// Float convolutions may run in TF32 on sm_80+ (cuDNN's default math, as PyTorch's default):
// 10-bit mantissas bound the error near 1e-3 of the tensor's scale, so float gets 5e-3 there.
double tolerance(gemm_dtype dtype) {
  if (dtype == gemm_dtype::half) return 2e-2;
#if JETPERF_HAS_CUDA
  if (cuda::query_device().sm_major >= 8) return 5e-3;
#endif
  return 1e-3;
}

struct layer_case {
  std::string name;
  std::function<models::network()> build;
  /// Ops [first, last) of the layer; last < 0 counts from the end (-0 = whole network).
  int first = 0;
  int last_from_end = 0;
  /// Scale of the external inputs (activations need values beyond +-3 to reach their corners).
  float input_scale = 1.0f;
};

models::conv_options conv(std::int64_t kernel, std::int64_t stride = 1, std::int64_t padding = 0,
                          std::int64_t groups = 1, bool bias = false, std::int64_t dilation = 1) {
  models::conv_options o;
  o.kernel = kernel, o.stride = stride, o.padding = padding, o.groups = groups, o.bias = bias, o.dilation = dilation;
  return o;
}

models::network single(const std::string& name, models::shape in, const std::function<void(network_builder&)>& f) {
  network_builder b(name, std::move(in));
  f(b);
  return b.build();
}

std::vector<layer_case> op_cases() {
  std::vector<layer_case> c;
  c.push_back({"conv3x3_bias", [] { return single("n", {8, 10, 10}, [](network_builder& b) { b.conv2d("c", b.input(), 16, conv(3, 1, 1, 1, true)); }); }});
  c.push_back({"conv7x7_stride2", [] { return single("n", {3, 17, 17}, [](network_builder& b) { b.conv2d("c", b.input(), 8, conv(7, 2, 3)); }); }});
  c.push_back({"conv_grouped", [] { return single("n", {8, 9, 9}, [](network_builder& b) { b.conv2d("c", b.input(), 12, conv(3, 1, 1, 4)); }); }});
  c.push_back({"conv_depthwise_stride2", [] { return single("n", {16, 11, 11}, [](network_builder& b) { b.conv2d("c", b.input(), 16, conv(5, 2, 2, 16)); }); }});
  c.push_back({"conv_dilated", [] { return single("n", {4, 12, 12}, [](network_builder& b) { b.conv2d("c", b.input(), 6, conv(3, 1, 2, 1, false, 2)); }); }});
  c.push_back({"linear_bias_after_flatten", [] {
                 return single("n", {8, 3, 3}, [](network_builder& b) { b.linear("fc", b.flatten("flatten", b.input()), 10); });
               }});
  c.push_back({"linear_no_bias", [] { return single("n", {40}, [](network_builder& b) { b.linear("fc", b.input(), 7, false); }); }});
  c.push_back({"batch_norm", [] { return single("n", {6, 5, 7}, [](network_builder& b) { b.batch_norm("bn", b.input(), 1e-3); }); }});
  for (op_type t : {op_type::relu, op_type::relu6, op_type::sigmoid, op_type::hardswish, op_type::hardsigmoid, op_type::silu}) {
    c.push_back({"act_" + models::to_string(t),
                 [t] { return single("n", {5, 6, 6}, [t](network_builder& b) { b.activation("a", t, b.input()); }); }, 0, 0,
                 8.0f});
  }
  c.push_back({"max_pool_resnet", [] { return single("n", {4, 12, 12}, [](network_builder& b) { b.max_pool("p", b.input(), 3, 2, 1); }); }});
  c.push_back({"max_pool_ceil", [] { return single("n", {4, 14, 14}, [](network_builder& b) { b.max_pool("p", b.input(), 3, 2, 0, true); }); }});
  c.push_back({"avg_pool_2x2", [] { return single("n", {4, 8, 8}, [](network_builder& b) { b.avg_pool("p", b.input(), 2, 2, 0); }); }});
  c.push_back({"avg_pool_exclude_pad", [] {
                 return single("n", {4, 7, 7}, [](network_builder& b) { b.avg_pool("p", b.input(), 3, 1, 1, false, false); });
               }});
  c.push_back({"avg_pool_ceil_include_pad", [] {
                 return single("n", {4, 10, 10}, [](network_builder& b) { b.avg_pool("p", b.input(), 3, 2, 1, true, true); });
               }});
  c.push_back({"adaptive_global", [] { return single("n", {6, 7, 7}, [](network_builder& b) { b.adaptive_avg_pool("p", b.input(), 1); }); }});
  c.push_back({"adaptive_uniform", [] { return single("n", {6, 12, 12}, [](network_builder& b) { b.adaptive_avg_pool("p", b.input(), 6); }); }});
  c.push_back({"adaptive_nonuniform", [] { return single("n", {6, 7, 7}, [](network_builder& b) { b.adaptive_avg_pool("p", b.input(), 3); }); }});
  // Two-input ops measured alone: the layer is the last op, its inputs come from outside.
  c.push_back({"add", [] {
                 return single("n", {6, 5, 5}, [](network_builder& b) {
                   b.add("add", b.activation("r", op_type::relu, b.input()), b.activation("s", op_type::sigmoid, b.input()));
                 });
               }, 2, 0});
  c.push_back({"mul_broadcast", [] {
                 return single("n", {6, 5, 5}, [](network_builder& b) {
                   const value s = b.adaptive_avg_pool("pool", b.input(), 1);
                   b.mul("mul", b.input(), s);
                 });
               }, 1, 0});
  c.push_back({"concat", [] {
                 return single("n", {4, 5, 5}, [](network_builder& b) {
                   const value a = b.conv2d("a", b.input(), 3, conv(1));
                   const value d = b.conv2d("d", b.input(), 5, conv(1));
                   b.concat("cat", {a, d, b.input()});
                 });
               }, 2, 0});
  c.push_back({"channel_shuffle", [] { return single("n", {12, 4, 3}, [](network_builder& b) { b.channel_shuffle("s", b.input(), 3); }); }});
  c.push_back({"chunk", [] {
                 return single("n", {8, 4, 4}, [](network_builder& b) {
                   b.chunk("c0", b.input(), 2, 0);
                   b.chunk("c1", b.input(), 2, 1);
                 });
               }, 1, 0});
  c.push_back({"dropout_and_flatten_alias", [] {
                 return single("n", {4, 3, 3}, [](network_builder& b) {
                   b.dropout("drop", b.flatten("flatten", b.activation("r", op_type::relu, b.input())));
                 });
               }});
  return c;
}

models::network bottleneck() {
  network_builder b("bottleneck", {16, 10, 10});
  b.begin_block("layer1.0", "Bottleneck");
  value x = b.conv2d("layer1.0.conv1", b.input(), 8, conv(1));
  x = b.batch_norm("layer1.0.bn1", x);
  x = b.activation("layer1.0.relu", op_type::relu, x);
  x = b.conv2d("layer1.0.conv2", x, 8, conv(3, 2, 1));
  x = b.batch_norm("layer1.0.bn2", x);
  x = b.activation("layer1.0.relu#2", op_type::relu, x, "layer1.0.relu");
  x = b.conv2d("layer1.0.conv3", x, 32, conv(1));
  x = b.batch_norm("layer1.0.bn3", x);
  value d = b.conv2d("layer1.0.downsample.0", b.input(), 32, conv(1, 2));
  d = b.batch_norm("layer1.0.downsample.1", d);
  x = b.add("layer1.0.add", x, d);
  b.activation("layer1.0.relu#3", op_type::relu, x, "layer1.0.relu");
  b.end_block();
  return b.build();
}

models::network squeeze_excitation() {
  network_builder b("se", {16, 6, 6});
  b.begin_block("features.1", "SqueezeExcitation");
  value s = b.adaptive_avg_pool("features.1.avgpool", b.input(), 1);
  s = b.conv2d("features.1.fc1", s, 4, conv(1, 1, 0, 1, true));
  s = b.activation("features.1.activation", op_type::relu, s);
  s = b.conv2d("features.1.fc2", s, 16, conv(1, 1, 0, 1, true));
  s = b.activation("features.1.scale_activation", op_type::hardsigmoid, s);
  b.mul("features.1.mul", b.input(), s);
  b.end_block();
  return b.build();
}

models::network shufflenet_unit() {
  network_builder b("shuffle", {16, 8, 8});
  b.begin_block("stage2.1", "InvertedResidual");
  const value x1 = b.chunk("stage2.1.chunk", b.input(), 2, 0);
  value x2 = b.chunk("stage2.1.chunk#2", b.input(), 2, 1);
  x2 = b.conv2d("stage2.1.branch2.0", x2, 8, conv(1));
  x2 = b.batch_norm("stage2.1.branch2.1", x2);
  x2 = b.activation("stage2.1.branch2.2", op_type::relu, x2);
  x2 = b.conv2d("stage2.1.branch2.3", x2, 8, conv(3, 1, 1, 8));
  x2 = b.batch_norm("stage2.1.branch2.4", x2);
  x2 = b.conv2d("stage2.1.branch2.5", x2, 8, conv(1));
  x2 = b.batch_norm("stage2.1.branch2.6", x2);
  x2 = b.activation("stage2.1.branch2.7", op_type::relu, x2);
  const value cat = b.concat("stage2.1.cat", {x1, x2});
  b.channel_shuffle("stage2.1.channel_shuffle", cat, 2);
  b.end_block();
  return b.build();
}

std::vector<layer_case> block_cases() {
  return {{"bottleneck", bottleneck}, {"squeeze_excitation", squeeze_excitation}, {"shufflenet_unit", shufflenet_unit}};
}

struct compared {
  double max_abs_error = 0;
  double scale = 0;
  std::size_t count = 0;
};

/// Runs `lc` on both backends at batch 2 and returns the largest difference and the reference's
/// largest magnitude; skips (returns false) without a device.
compared run_both(const layer_case& lc, gemm_dtype dtype, bool* skipped, std::string* why) {
  compared r;
  auto gpu = make_cudnn_layer_backend(why);
  if (!gpu) {
    *skipped = true;
    return r;
  }
  const models::network net = lc.build();
  const int last = static_cast<int>(net.ops.size()) - lc.last_from_end;
  const models::layer l = models::make_layer(net, lc.first, last);
  // The cases are ops cuDNN runs in float and half on every GPU that has half arithmetic (sm_53+,
  // every Jetson since the Nano): a refusal here is the backend's failure, not a skip.
  const auto* plugin = workloads::cuda_plugin();
  const auto info = plugin ? plugin->query_device() : workloads::cuda_device_info{};
  if (dtype == gemm_dtype::half && info.sm_major * 10 + info.sm_minor < 53) {
    *skipped = true;
    *why = "skipped: GPU sm_" + std::to_string(info.sm_major * 10 + info.sm_minor) + " has no half arithmetic";
    return r;
  }
  const auto reason = gpu->supports(net, l, dtype);
  EXPECT_FALSE(reason) << lc.name << ": " << reason.value_or("");
  if (reason) return r;
  auto ref = make_reference_layer_backend();
  const std::int64_t batch = 2;
  gpu->prepare(net, l, batch, dtype);
  ref->prepare(net, l, batch, dtype);
  if (lc.input_scale != 1.0f) {
    for (std::size_t i = 0; i < l.inputs.size(); ++i) {
      const auto& s = l.input_shapes[i];
      std::vector<float> v(static_cast<std::size_t>(batch * models::elements(s)));
      for (std::size_t k = 0; k < v.size(); ++k)
        v[k] = lc.input_scale * (static_cast<float>(static_cast<int>(k % 23) - 11) / 11.0f);
      gpu->set_input(i, v);
      ref->set_input(i, v);
    }
  }
  gpu->run_once();
  ref->run_once();
  const auto got = gpu->output();
  const auto want = ref->output();
  EXPECT_EQ(got.size(), want.size());
  EXPECT_EQ(want.size(), static_cast<std::size_t>(batch * models::elements(l.output_shape)));
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    r.max_abs_error = std::max(r.max_abs_error, static_cast<double>(std::fabs(got[i] - want[i])));
    r.scale = std::max(r.scale, static_cast<double>(std::fabs(want[i])));
  }
  r.count = got.size();
  EXPECT_GT(gpu->timed_run_s(), 0.0);
  return r;
}

class cudnn_layers : public ::testing::TestWithParam<std::tuple<layer_case, gemm_dtype>> {};

std::string case_name(const ::testing::TestParamInfo<std::tuple<layer_case, gemm_dtype>>& info) {
  return std::get<0>(info.param).name + "_" + to_string(std::get<1>(info.param));
}

}  // namespace

TEST_P(cudnn_layers, match_the_reference) {
  const auto& [lc, dtype] = GetParam();
  bool skipped = false;
  std::string why;
  const compared r = run_both(lc, dtype, &skipped, &why);
  if (skipped) GTEST_SKIP() << why;
  ASSERT_GT(r.count, 0u);
  // Relative to the output's scale: elements near zero carry the absolute error of the large ones.
  const double allowed = tolerance(dtype) * std::max(r.scale, 1e-3);
  EXPECT_LE(r.max_abs_error, allowed) << lc.name << ": max |cudnn - reference| " << r.max_abs_error
                                      << " with outputs up to " << r.scale;
}

INSTANTIATE_TEST_SUITE_P(ops, cudnn_layers,
                         ::testing::Combine(::testing::ValuesIn(op_cases()),
                                            ::testing::Values(gemm_dtype::single, gemm_dtype::half)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(blocks, cudnn_layers,
                         ::testing::Combine(::testing::ValuesIn(block_cases()),
                                            ::testing::Values(gemm_dtype::single, gemm_dtype::half)),
                         case_name);

TEST(cudnn_layer_backend, factory_returns_a_backend_or_says_why) {
  std::string why;
  auto be = make_cudnn_layer_backend(&why);
  if (be) {
    EXPECT_EQ(be->name(), "cudnn");
  } else {
    EXPECT_FALSE(why.empty());
    EXPECT_TRUE(why.rfind("skipped: ", 0) == 0 || why.rfind("not supported by this build", 0) == 0) << why;
  }
}

TEST(cudnn_layer_backend, refuses_double_and_bad_inputs) {
  std::string why;
  auto be = make_cudnn_layer_backend(&why);
  if (!be) GTEST_SKIP() << why;
  const models::network net = bottleneck();
  const models::layer l = models::whole_network(net);
  const auto reason = be->supports(net, l, gemm_dtype::double_);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("float"), std::string::npos) << *reason;
  EXPECT_THROW(be->run_once(), std::logic_error);
  be->prepare(net, l, 1, gemm_dtype::single);
  EXPECT_THROW(be->set_input(1, {}), std::out_of_range);
  EXPECT_THROW(be->set_input(0, std::vector<float>(3)), std::invalid_argument);
  // A second prepare replaces the first layer.
  be->prepare(net, l, 3, gemm_dtype::half);
  EXPECT_EQ(be->output().size(), static_cast<std::size_t>(3 * models::elements(l.output_shape)));
}

// The cases above build and run on the reference without a GPU, so a machine without one still
// checks that they are valid networks (and a GPU run compares real layers, not builder errors).
TEST(cudnn_layer_cases, are_valid_layers_on_the_reference) {
  auto cases = op_cases();
  for (auto& b : block_cases()) cases.push_back(b);
  for (const auto& lc : cases) {
    SCOPED_TRACE(lc.name);
    const models::network net = lc.build();
    const models::layer l = models::make_layer(net, lc.first, static_cast<int>(net.ops.size()) - lc.last_from_end);
    auto ref = make_reference_layer_backend();
    ASSERT_FALSE(ref->supports(net, l, gemm_dtype::half).has_value());
    ref->prepare(net, l, 2, gemm_dtype::single);
    ref->run_once();
    const auto out = ref->output();
    ASSERT_EQ(out.size(), static_cast<std::size_t>(2 * models::elements(l.output_shape)));
    double sum = 0;
    for (float v : out) sum += std::fabs(v);
    EXPECT_GT(sum, 0.0) << "an all-zero output compares nothing";
  }
}
