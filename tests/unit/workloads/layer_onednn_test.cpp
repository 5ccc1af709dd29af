// oneDNN against the reference for every op type, for whole blocks, and for zoo blocks.
#include <jetperf/workloads/layer_backends.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include <gtest/gtest.h>

#include <jetperf/config.hpp>
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

using namespace jetperf;
using namespace jetperf::workloads;
using models::network_builder;
using models::op_type;

namespace {

/// The backend of this build, which has oneDNN: a null one fails the test that asked.
std::unique_ptr<layer_backend> onednn() {
  std::string why;
  auto be = make_onednn_layer_backend(&why);
  EXPECT_NE(be, nullptr) << why;
  return be;
}

// Runs `l` on both backends and checks max |onednn - ref| <= 1e-4 * max |ref| + 1e-5.
void expect_match(const models::network& net, const models::layer& l, std::int64_t batch = 2) {
  SCOPED_TRACE(net.name + " / " + l.name);
  auto dnn = onednn();
  ASSERT_NE(dnn, nullptr);
  const auto why = dnn->supports(net, l, gemm_dtype::single);
  ASSERT_FALSE(why.has_value()) << *why;
  auto ref = make_reference_layer_backend();
  ref->prepare(net, l, batch, gemm_dtype::single);
  dnn->prepare(net, l, batch, gemm_dtype::single);
  ref->run_once();
  dnn->run_once();
  dnn->sync();
  const auto want = ref->output();
  const auto got = dnn->output();
  ASSERT_EQ(got.size(), want.size());
  ASSERT_EQ(static_cast<std::int64_t>(want.size()), models::elements(l.output_shape) * batch);
  double max_ref = 0, max_err = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    max_ref = std::max(max_ref, static_cast<double>(std::fabs(want[i])));
    max_err = std::max(max_err, static_cast<double>(std::fabs(got[i] - want[i])));
  }
  EXPECT_GT(max_ref, 0.0) << "a zero output compares nothing";
  EXPECT_LE(max_err, 1e-4 * max_ref + 1e-5) << "max |ref| " << max_ref;
}

// The whole network, and each op on its own (external inputs from make_layer_input).
[[maybe_unused]] void expect_match_all(const models::network& net, std::int64_t batch = 2) {
  expect_match(net, models::whole_network(net), batch);
  for (const auto& l : models::layers_of(net, models::granularity::op)) expect_match(net, l, batch);
}

[[maybe_unused]] models::network single(const std::function<void(network_builder&)>& add, models::shape in = {8, 9, 9}) {
  network_builder b("t", std::move(in));
  add(b);
  return b.build();
}

}  // namespace

TEST(onednn_layers, factory_and_name) {
  std::string why;
  auto be = make_layer_backend("cpu", &why);
#if JETPERF_HAS_ONEDNN
  ASSERT_TRUE(be) << why;
  EXPECT_EQ(be->name(), "onednn");
#else
  EXPECT_FALSE(be);
  EXPECT_EQ(why, "not supported by this build (no oneDNN)");
#endif
  EXPECT_FALSE(make_layer_backend("tpu", &why));
  EXPECT_NE(why.find("tpu"), std::string::npos);
}

TEST(onednn_layers, cudnn_factory_answers_without_a_device) {
  std::string why;
  auto be = make_cudnn_layer_backend(&why);
  if (be) {
    EXPECT_EQ(be->name(), "cudnn");
  } else {
    EXPECT_TRUE(why.rfind("skipped: no CUDA device", 0) == 0 || why == "not supported by this build (no cuDNN)") << why;
  }
}

// The comparisons need oneDNN; a build without it is covered by factory_and_name above, which
// checks that it answers "not supported by this build".
#if JETPERF_HAS_ONEDNN

TEST(onednn_layers, conv2d_variants) {
  expect_match_all(single([](network_builder& b) { b.conv2d("c", b.input(), 16, {1, 1, 0, 1, 1, false}); }));
  expect_match_all(single([](network_builder& b) { b.conv2d("c", b.input(), 12, {3, 2, 1, 1, 1, true}); }));
  expect_match_all(single([](network_builder& b) { b.conv2d("c", b.input(), 8, {3, 1, 1, 4, 1, false}); }));
  expect_match_all(single([](network_builder& b) { b.conv2d("c", b.input(), 8, {5, 2, 2, 8, 1, false}); }));
  expect_match_all(single([](network_builder& b) { b.conv2d("c", b.input(), 8, {3, 1, 2, 1, 2, true}); }));
  expect_match_all(single([](network_builder& b) { b.conv2d("c", b.input(), 8, {7, 2, 3, 1, 1, false}); }, {3, 23, 23}));
}

TEST(onednn_layers, linear_after_flatten) {
  expect_match_all(single([](network_builder& b) {
    const auto f = b.flatten("flatten", b.input());
    b.linear("fc", f, 10, true);
  }, {4, 3, 3}));
  expect_match_all(single([](network_builder& b) { b.linear("fc", b.input(), 7, false); }, {33}));
}

TEST(onednn_layers, batch_norm) {
  expect_match_all(single([](network_builder& b) { b.batch_norm("bn", b.input(), 1e-3); }));
}

TEST(onednn_layers, activations) {
  for (const auto t : {op_type::relu, op_type::relu6, op_type::sigmoid, op_type::hardswish, op_type::hardsigmoid,
                       op_type::silu}) {
    SCOPED_TRACE(models::to_string(t));
    // Scale the input up so that relu6 and the hard functions see both of their kinks.
    expect_match_all(single([t](network_builder& b) {
      const auto c = b.conv2d("c", b.input(), 8, {3, 1, 1, 1, 1, true});
      const auto s = b.add("s", c, c);
      const auto s2 = b.add("s2", s, s);
      const auto s3 = b.add("s3", s2, s2);
      b.activation("act", t, s3);
    }));
  }
  expect_match_all(single([](network_builder& b) { b.activation("act", op_type::hardswish, b.input()); }, {20}));
}

TEST(onednn_layers, pooling) {
  expect_match_all(single([](network_builder& b) { b.max_pool("p", b.input(), 3, 2, 1); }));
  expect_match_all(single([](network_builder& b) { b.max_pool("p", b.input(), 3, 2, 0, true); }, {4, 10, 10}));
  expect_match_all(single([](network_builder& b) { b.max_pool("p", b.input(), 2, 2, 0, true); }));
  expect_match_all(single([](network_builder& b) { b.avg_pool("p", b.input(), 2, 2, 0); }));
  expect_match_all(single([](network_builder& b) { b.avg_pool("p", b.input(), 3, 2, 1, false, true); }));
  expect_match_all(single([](network_builder& b) { b.avg_pool("p", b.input(), 3, 2, 1, false, false); }));
  expect_match_all(single([](network_builder& b) { b.avg_pool("p", b.input(), 2, 2, 0, true, false); }));
  expect_match_all(single([](network_builder& b) { b.adaptive_avg_pool("p", b.input(), 1); }));
  expect_match_all(single([](network_builder& b) { b.adaptive_avg_pool("p", b.input(), 3); }));
}

TEST(onednn_layers, unsupported_pooling_says_why) {
  auto dnn = onednn();
  ASSERT_NE(dnn, nullptr);
  const auto adaptive = single([](network_builder& b) { b.adaptive_avg_pool("p", b.input(), 2); });
  const auto why = dnn->supports(adaptive, models::whole_network(adaptive), gemm_dtype::single);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("non-uniform"), std::string::npos) << *why;
  EXPECT_THROW(dnn->prepare(adaptive, models::whole_network(adaptive), 1, gemm_dtype::single), std::runtime_error);
  const auto overhang = single([](network_builder& b) { b.avg_pool("p", b.input(), 2, 2, 0, true, true); });
  EXPECT_TRUE(dnn->supports(overhang, models::whole_network(overhang), gemm_dtype::single).has_value());
  EXPECT_TRUE(dnn->supports(overhang, models::whole_network(overhang), gemm_dtype::double_).has_value());
}

TEST(onednn_layers, elementwise_binary_and_data_movement) {
  expect_match_all(single([](network_builder& b) {
    const auto c = b.conv2d("c", b.input(), 8, {1, 1, 0, 1, 1, false});
    b.add("add", c, b.input());
  }));
  expect_match_all(single([](network_builder& b) {
    const auto p = b.adaptive_avg_pool("p", b.input(), 1);
    b.mul("mul", b.input(), p);
  }));
  expect_match_all(single([](network_builder& b) {
    const auto c = b.conv2d("c", b.input(), 4, {1, 1, 0, 1, 1, false});
    b.concat("cat", {b.input(), c, b.input()});
  }));
  for (const std::int64_t g : {2, 4}) {
    expect_match_all(single([g](network_builder& b) { b.channel_shuffle("shuffle", b.input(), g); }));
  }
  for (const int index : {0, 1}) {
    expect_match_all(single([index](network_builder& b) { b.chunk("chunk", b.input(), 2, index); }));
  }
  expect_match_all(single([](network_builder& b) {
    const auto d = b.dropout("drop", b.input());
    const auto f = b.flatten("flatten", d);
    b.dropout("drop2", f);
  }));
}

// A 32-channel convolution first: on AVX-512 it writes nhwc or nChw16c, so every op below reads
// a non-plain producer (and, mixed with the plain network input, two layouts at once).
TEST(onednn_layers, every_op_on_a_blocked_producer) {
  using value = network_builder::value;
  const auto conv = [](network_builder& b, std::int64_t c = 32) {
    return b.conv2d("c", b.input(), c, {3, 1, 1, 1, 1, true});
  };
  const std::vector<std::function<void(network_builder&, value)>> cases{
      [](network_builder& b, value x) { b.batch_norm("bn", x); },
      [](network_builder& b, value x) { b.activation("a", op_type::relu, x); },
      [](network_builder& b, value x) { b.activation("a", op_type::relu6, x); },
      [](network_builder& b, value x) { b.activation("a", op_type::sigmoid, x); },
      [](network_builder& b, value x) { b.activation("a", op_type::hardswish, x); },
      [](network_builder& b, value x) { b.activation("a", op_type::hardsigmoid, x); },
      [](network_builder& b, value x) { b.activation("a", op_type::silu, x); },
      [](network_builder& b, value x) { b.max_pool("p", x, 3, 2, 0, true); },
      [](network_builder& b, value x) { b.avg_pool("p", x, 3, 2, 1, false, false); },
      [](network_builder& b, value x) { b.adaptive_avg_pool("p", x, 1); },
      [](network_builder& b, value x) { b.adaptive_avg_pool("p", x, 3); },
      [](network_builder& b, value x) { b.add("add", x, b.conv2d("c2", b.input(), 32, {1, 1, 0, 1, 1, false})); },
      [](network_builder& b, value x) { b.add("add", x, b.input()); },
      [](network_builder& b, value x) { b.add("add", b.input(), x); },
      [](network_builder& b, value x) { b.mul("mul", x, b.adaptive_avg_pool("p", x, 1)); },
      [](network_builder& b, value x) { b.concat("cat", {x, b.input(), x}); },
      [](network_builder& b, value x) { b.concat("cat", {x, b.conv2d("c2", b.input(), 24, {1, 1, 0, 1, 1, false})}); },
      [](network_builder& b, value x) { b.channel_shuffle("shuffle", x, 4); },
      [](network_builder& b, value x) { b.chunk("chunk", x, 2, 1); },
      [](network_builder& b, value x) { b.chunk("chunk", b.conv2d("c2", x, 24, {1, 1, 0, 1, 1, false}), 2, 1); },
      [](network_builder& b, value x) { b.linear("fc", b.flatten("flatten", x), 10, true); },
      [](network_builder& b, value x) { b.dropout("drop", x); },
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const auto net = single([&](network_builder& b) { cases[i](b, conv(b)); }, {32, 9, 9});
    expect_match(net, models::whole_network(net), 2);
  }
}

TEST(onednn_layers, bottleneck_with_residual_add) {
  expect_match_all(single([](network_builder& b) {
    b.begin_block("layer1.0", "Bottleneck");
    const auto x = b.input();
    const auto c1 = b.conv2d("layer1.0.conv1", x, 8, {1, 1, 0, 1, 1, false});
    const auto b1 = b.batch_norm("layer1.0.bn1", c1);
    const auto r1 = b.activation("layer1.0.relu", op_type::relu, b1);
    const auto c2 = b.conv2d("layer1.0.conv2", r1, 8, {3, 2, 1, 1, 1, false});
    const auto b2 = b.batch_norm("layer1.0.bn2", c2);
    const auto r2 = b.activation("layer1.0.relu#2", op_type::relu, b2, "layer1.0.relu");
    const auto c3 = b.conv2d("layer1.0.conv3", r2, 32, {1, 1, 0, 1, 1, false});
    const auto b3 = b.batch_norm("layer1.0.bn3", c3);
    const auto d = b.conv2d("layer1.0.downsample.0", x, 32, {1, 2, 0, 1, 1, false});
    const auto db = b.batch_norm("layer1.0.downsample.1", d);
    const auto s = b.add("layer1.0.add", b3, db);
    b.activation("layer1.0.relu#3", op_type::relu, s, "layer1.0.relu");
    b.end_block();
  }, {16, 14, 14}));
}

TEST(onednn_layers, squeeze_excitation_block) {
  expect_match_all(single([](network_builder& b) {
    b.begin_block("se", "SqueezeExcitation");
    const auto x = b.input();
    const auto p = b.adaptive_avg_pool("se.avgpool", x, 1);
    const auto f1 = b.conv2d("se.fc1", p, 4, {1, 1, 0, 1, 1, true});
    const auto a = b.activation("se.activation", op_type::silu, f1);
    const auto f2 = b.conv2d("se.fc2", a, 16, {1, 1, 0, 1, 1, true});
    const auto s = b.activation("se.scale_activation", op_type::sigmoid, f2);
    b.mul("se.mul", x, s);
    b.end_block();
  }, {16, 7, 7}));
}

TEST(onednn_layers, shufflenet_unit) {
  expect_match_all(single([](network_builder& b) {
    b.begin_block("stage2.1", "InvertedResidual");
    const auto x = b.input();
    const auto x1 = b.chunk("stage2.1.chunk", x, 2, 0);
    const auto x2 = b.chunk("stage2.1.chunk#2", x, 2, 1);
    const auto c1 = b.conv2d("stage2.1.branch2.0", x2, 8, {1, 1, 0, 1, 1, false});
    const auto n1 = b.batch_norm("stage2.1.branch2.1", c1);
    const auto r1 = b.activation("stage2.1.branch2.2", op_type::relu, n1);
    const auto c2 = b.conv2d("stage2.1.branch2.3", r1, 8, {3, 1, 1, 8, 1, false});
    const auto n2 = b.batch_norm("stage2.1.branch2.4", c2);
    const auto c3 = b.conv2d("stage2.1.branch2.5", n2, 8, {1, 1, 0, 1, 1, false});
    const auto n3 = b.batch_norm("stage2.1.branch2.6", c3);
    const auto r3 = b.activation("stage2.1.branch2.7", op_type::relu, n3);
    const auto cat = b.concat("stage2.1.cat", {x1, r3});
    b.channel_shuffle("stage2.1.channel_shuffle", cat, 2);
    b.end_block();
  }, {16, 7, 7}));
}

TEST(onednn_layers, densenet_concat_chain) {
  expect_match_all(single([](network_builder& b) {
    b.begin_block("denseblock1", "_DenseBlock");
    std::vector<network_builder::value> features{b.input()};
    for (int i = 1; i <= 3; ++i) {
      const std::string p = "denseblock1.denselayer" + std::to_string(i);
      const auto cat = b.concat(p + ".cat", features);
      const auto n1 = b.batch_norm(p + ".norm1", cat);
      const auto r1 = b.activation(p + ".relu1", op_type::relu, n1);
      const auto c1 = b.conv2d(p + ".conv1", r1, 16, {1, 1, 0, 1, 1, false});
      const auto n2 = b.batch_norm(p + ".norm2", c1);
      const auto r2 = b.activation(p + ".relu2", op_type::relu, n2);
      features.push_back(b.conv2d(p + ".conv2", r2, 4, {3, 1, 1, 1, 1, false}));
    }
    b.concat("denseblock1.cat", features);
    b.end_block();
  }, {8, 8, 8}));
}

TEST(onednn_layers, set_input_changes_the_output) {
  auto dnn = onednn();
  ASSERT_NE(dnn, nullptr);
  const auto net = single([](network_builder& b) { b.conv2d("c", b.input(), 4, {3, 1, 1, 1, 1, false}); });
  const auto l = models::whole_network(net);
  auto ref = make_reference_layer_backend();
  dnn->prepare(net, l, 1, gemm_dtype::single);
  ref->prepare(net, l, 1, gemm_dtype::single);
  const auto before = dnn->output();
  std::vector<float> x(8 * 81);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 13) * 0.1f;
  dnn->set_input(0, x);
  ref->set_input(0, x);
  dnn->run_once();
  const auto after = dnn->output(), want = ref->output();
  EXPECT_NE(before, after);
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(after[i], want[i], 1e-4) << i;
  EXPECT_THROW(dnn->set_input(1, x), std::out_of_range);
  EXPECT_THROW(dnn->set_input(0, std::vector<float>(5)), std::invalid_argument);
  dnn->set_threads(1);
  EXPECT_GT(dnn->timed_run_s(), 0.0);
  dnn->set_threads(0);

  // 32 channels: the conv reads a blocked layout, so the layer input is converted outside the
  // timed runs and set_input must convert the new values again.
  const auto wide = single([](network_builder& b) { b.conv2d("c", b.input(), 32, {3, 1, 1, 1, 1, false}); },
                           {32, 9, 9});
  const auto wl = models::whole_network(wide);
  dnn->prepare(wide, wl, 1, gemm_dtype::single);
  ref->prepare(wide, wl, 1, gemm_dtype::single);
  std::vector<float> y(32 * 81);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(i % 7) * 0.2f - 0.5f;
  dnn->set_input(0, y);
  ref->set_input(0, y);
  const auto got = dnn->output(), expected = ref->output();
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(got[i], expected[i], 1e-4) << i;
}

TEST(onednn_layers, set_threads_reaches_openmp) {
  auto dnn = onednn();
  ASSERT_NE(dnn, nullptr);
  using get_fn = int (*)();
  const auto get = reinterpret_cast<get_fn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  // Debian's oneDNN runs on OpenMP (DNNL_CPU_RUNTIME_OMP), so the runtime is loaded with it.
  ASSERT_NE(get, nullptr) << "omp_get_max_threads not found: oneDNN is not on OpenMP";
  const int before = get();
  dnn->set_threads(3);
  EXPECT_EQ(get(), 3);
  dnn->set_threads(0);
  EXPECT_EQ(get(), before);
}

TEST(onednn_layers, half_is_supported_or_says_why) {
  auto dnn = onednn();
  ASSERT_NE(dnn, nullptr);
  const auto net = single([](network_builder& b) {
    const auto c = b.conv2d("c", b.input(), 8, {3, 1, 1, 1, 1, false});
    b.activation("r", op_type::relu, c);
  });
  const auto l = models::whole_network(net);
  const auto why = dnn->supports(net, l, gemm_dtype::half);
  if (why) {
    EXPECT_EQ(why->rfind("not supported by this CPU's oneDNN: f16 ", 0), 0u) << *why;
    EXPECT_THROW(dnn->prepare(net, l, 1, gemm_dtype::half), std::runtime_error);
    return;
  }
  // This CPU has f16: compare with the reference's half emulation, loosely.
  auto ref = make_reference_layer_backend();
  ref->prepare(net, l, 1, gemm_dtype::half);
  dnn->prepare(net, l, 1, gemm_dtype::half);
  dnn->run_once();
  const auto got = dnn->output(), want = ref->output();
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-2) << i;
}

namespace {

void expect_block_matches(const std::string& model, const std::string& block) {
  const auto net = models::build_model(model);
  for (const auto& b : net.blocks) {
    if (b.name != block) continue;
    auto l = models::make_layer(net, b.first, b.last);
    l.name = b.name;
    expect_match(net, l, 1);
    return;
  }
  FAIL() << model << " has no block " << block;
}

}  // namespace

TEST(onednn_layers, resnet18_layer1_0) { expect_block_matches("resnet18", "layer1.0"); }
TEST(onednn_layers, resnet18_layer2_0_downsample) { expect_block_matches("resnet18", "layer2.0"); }
TEST(onednn_layers, mobilenet_v2_features_2) { expect_block_matches("mobilenet_v2", "features.2"); }
TEST(onednn_layers, mobilenet_v3_small_features_1) { expect_block_matches("mobilenet_v3_small", "features.1"); }
TEST(onednn_layers, shufflenet_v2_x0_5_stage2_0) { expect_block_matches("shufflenet_v2_x0_5", "stage2.0"); }
TEST(onednn_layers, shufflenet_v2_x0_5_stage2_1) { expect_block_matches("shufflenet_v2_x0_5", "stage2.1"); }

TEST(onednn_layers, squeezenet1_0_fire_and_ceil_pool) {
  expect_block_matches("squeezenet1_0", "features.2");
  expect_block_matches("squeezenet1_0", "features.3");
}

void expect_network_matches(const std::string& model) {
  const auto net = models::build_model(model);
  expect_match(net, models::whole_network(net), 1);
}

TEST(onednn_layers, whole_mobilenet_v3_small) { expect_network_matches("mobilenet_v3_small"); }

// Every block of every zoo network can be planned in float (no unsupported op slips in).
TEST(onednn_layers, every_zoo_block_is_supported_in_float) {
  auto dnn = onednn();
  ASSERT_NE(dnn, nullptr);
  std::size_t checked = 0;
  for (const auto& e : models::zoo()) {
    const models::network net = e.build();
    for (const auto& l : models::layers_of(net, models::granularity::block)) {
      const auto why = dnn->supports(net, l, gemm_dtype::single);
      EXPECT_FALSE(why.has_value()) << e.name << " " << l.name << ": " << *why;
      ++checked;
    }
  }
  EXPECT_GE(checked, 23u * 10u) << "the 23 zoo networks have at least 10 blocks each";
}

// The blocks that open with forward()'s functional glue (flatten, mean, densenet's relu + pool)
// run it on the previous module's 4-d output, as the seed does.
TEST(onednn_layers, blocks_that_open_with_glue) {
  expect_block_matches("resnet18", "fc");
  expect_block_matches("mnasnet0_5", "classifier.0");
  expect_block_matches("mobilenet_v2", "classifier.0");
  expect_block_matches("densenet121", "classifier");
  expect_block_matches("squeezenet1_0", "flatten");
}


namespace {

// oneDNN's implementation per op, without the "+reorder" a layout conversion adds.
std::map<int, std::string> impls(layer_backend& be) {
  auto out = be.op_kernels();
  for (auto& [op, k] : out)
    if (const auto at = k.find("+reorder"); at != std::string::npos) k.erase(at);
  return out;
}

// Issue "Numbers that say when they are wrong", item 3: each op run on its own gets the
// implementation the same op gets inside the whole network (a pooling fed plain NCHW alone got
// oneDNN's reference kernel, 5-35x slower than the blocked one it gets after a convolution).
void expect_isolated_ops_run_as_in_the_network(const std::string& model) {
  const auto net = models::build_model(model);
  auto whole = onednn();
  ASSERT_NE(whole, nullptr);
  whole->prepare(net, models::whole_network(net), 1, gemm_dtype::single);
  const auto in_network = impls(*whole);
  std::size_t pools = 0;
  for (const auto& l : models::layers_of(net, models::granularity::op)) {
    auto alone = onednn();
    alone->prepare(net, l, 1, gemm_dtype::single);
    for (const auto& [op, impl] : impls(*alone)) {
      SCOPED_TRACE(model + " " + l.name);
      ASSERT_TRUE(in_network.count(op));
      EXPECT_EQ(impl, in_network.at(op));
      const auto type = net.ops[static_cast<std::size_t>(op)].type;
      if (type == op_type::max_pool || type == op_type::avg_pool) {
        ++pools;
        EXPECT_EQ(impl.find("ref"), std::string::npos) << "a pooling on the reference kernel: " << impl;
        EXPECT_EQ(impl.find("simple"), std::string::npos) << "a pooling on the plain-layout kernel: " << impl;
      }
    }
  }
  EXPECT_GT(pools, 0u) << model << " has pooling ops to compare";
}

}  // namespace

TEST(onednn_layers, resnet18s_ops_alone_run_the_implementation_they_run_in_the_network) {
  expect_isolated_ops_run_as_in_the_network("resnet18");
}

TEST(onednn_layers, squeezenet1_0s_ops_alone_run_the_implementation_they_run_in_the_network) {
  expect_isolated_ops_run_as_in_the_network("squeezenet1_0");
}

#endif  // JETPERF_HAS_ONEDNN
