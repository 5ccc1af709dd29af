#include <gtest/gtest.h>

#include <stdexcept>

#include <jetperf/models/network_builder.hpp>

using namespace jetperf::models;

namespace {

conv_options conv(std::int64_t kernel, std::int64_t stride = 1, std::int64_t padding = 0, std::int64_t groups = 1) {
  conv_options o;
  o.kernel = kernel;
  o.stride = stride;
  o.padding = padding;
  o.groups = groups;
  return o;
}

/// The op name a shape_error carries, or "" when `f` does not throw one.
template <class F>
std::string shape_error_op(F&& f) {
  try {
    f();
  } catch (const shape_error& e) {
    return e.op_name();
  }
  return "";
}

}  // namespace

TEST(network_builder, conv_shapes_follow_torch) {
  network_builder b("n", {3, 224, 224});
  auto x = b.conv2d("c1", b.input(), 64, conv(7, 2, 3));
  EXPECT_EQ(b.shape_of(x), (shape{64, 112, 112}));
  // Dilation 2, kernel 3, padding 2 keeps the size.
  conv_options d = conv(3, 1, 2);
  d.dilation = 2;
  EXPECT_EQ(b.shape_of(b.conv2d("c2", x, 8, d)), (shape{8, 112, 112}));
  // Depthwise with bias: params 64 * 9 + 64.
  conv_options dw = conv(3, 2, 1, 64);
  dw.bias = true;
  auto y = b.conv2d("dw", x, 64, dw);
  EXPECT_EQ(b.shape_of(y), (shape{64, 56, 56}));
  const network n = b.build();
  EXPECT_EQ(n.ops[2].params, 64 * 9 + 64);
  EXPECT_EQ(n.ops[2].macs, 64LL * 56 * 56 * 9);
  EXPECT_EQ(n.ops[2].flops, 2 * n.ops[2].macs);
}

TEST(network_builder, pool_ceil_mode_keeps_the_last_window_inside) {
  network_builder b("n", {1, 5, 5});
  EXPECT_EQ(b.shape_of(b.max_pool("floor", b.input(), 2, 2, 0)), (shape{1, 2, 2}));
  EXPECT_EQ(b.shape_of(b.max_pool("ceil", b.input(), 2, 2, 0, true)), (shape{1, 3, 3}));
  // ceil would give 3, but the third window would start at 6 >= 5 + 1 (in the right padding): 2.
  EXPECT_EQ(b.shape_of(b.max_pool("ceil_pad", b.input(), 3, 3, 1, true)), (shape{1, 2, 2}));
  EXPECT_EQ(b.shape_of(b.avg_pool("avg", b.input(), 2, 2, 0)), (shape{1, 2, 2}));
  // SqueezeNet's 109 -> 54 with kernel 3, stride 2, ceil_mode.
  network_builder s("s", {96, 109, 109});
  EXPECT_EQ(s.shape_of(s.max_pool("p", s.input(), 3, 2, 0, true)), (shape{96, 54, 54}));
  EXPECT_EQ(shape_error_op([] {
              network_builder t("t", {1, 5, 5});
              t.max_pool("big_pad", t.input(), 2, 2, 2);  // padding over half the kernel
            }),
            "big_pad");
}

TEST(network_builder, rejects_ops_that_do_not_fit) {
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {3, 8, 8});
              b.conv2d("grouped", b.input(), 4, conv(1, 1, 0, 2));  // 3 channels, 2 groups
            }),
            "grouped");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              b.conv2d("outg", b.input(), 6, conv(1, 1, 0, 4));  // 6 outputs, 4 groups
            }),
            "outg");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              b.conv2d("huge_kernel", b.input(), 4, conv(9));
            }),
            "huge_kernel");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              auto x = b.conv2d("c", b.input(), 8, conv(1));
              b.add("sum", x, b.input());
            }),
            "sum");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              auto s = b.adaptive_avg_pool("pool", b.input(), 1);
              auto t = b.conv2d("fc", s, 3, conv(1));
              b.mul("scale", b.input(), t);  // [3,1,1] does not scale 4 channels
            }),
            "scale");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              auto p = b.max_pool("p", b.input(), 2, 2, 0);
              b.concat("cat", {b.input(), p});
            }),
            "cat");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {6, 8, 8});
              b.channel_shuffle("shuffle", b.input(), 4);
            }),
            "shuffle");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              b.linear("fc", b.input(), 10);  // needs flatten first
            }),
            "fc");
  EXPECT_EQ(shape_error_op([] {
              network_builder b("n", {4, 8, 8});
              b.chunk("half", b.input(), 3, 0);
            }),
            "half");
  try {
    network_builder b("n", {3, 8, 8});
    b.conv2d("grouped", b.input(), 4, conv(1, 1, 0, 2));
    FAIL();
  } catch (const shape_error& e) {
    EXPECT_NE(std::string(e.what()).find("divisible by groups 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(network_builder("empty", {3, 0, 8}), shape_error);
}

TEST(network_builder, linear_concat_shuffle_chunk_flatten) {
  network_builder b("n", {8, 4, 4});
  auto a = b.chunk("a", b.input(), 2, 0);
  auto c = b.chunk("c", b.input(), 2, 1);
  EXPECT_EQ(b.shape_of(a), (shape{4, 4, 4}));
  auto cat = b.concat("cat", {a, c, a});
  EXPECT_EQ(b.shape_of(cat), (shape{12, 4, 4}));
  auto s = b.channel_shuffle("shuffle", cat, 3);
  auto f = b.flatten("flatten", s);
  EXPECT_EQ(b.shape_of(f), (shape{192}));
  auto l = b.linear("fc", f, 10);
  const network n = b.build();
  EXPECT_EQ(n.ops[static_cast<std::size_t>(l)].params, 192 * 10 + 10);
  EXPECT_EQ(n.ops[static_cast<std::size_t>(l)].macs, 1920);
  EXPECT_EQ(n.ops[static_cast<std::size_t>(f)].flops, 0);
}

TEST(network_builder, names_modules_and_blocks) {
  network_builder b("n", {4, 8, 8});
  auto x = b.conv2d("stem", b.input(), 4, conv(3, 1, 1));
  b.begin_block("layer1.0", "BasicBlock");
  auto y = b.activation("layer1.0.relu", op_type::relu, x);
  y = b.activation("layer1.0.relu", op_type::relu, y);
  y = b.add("layer1.0.add", y, x);
  y = b.activation("layer1.0.relu", op_type::relu, y);
  b.end_block();
  auto p = b.adaptive_avg_pool("mean", y, 1, false);
  b.flatten("flatten", p);
  const network n = b.build();
  ASSERT_EQ(n.ops.size(), 7u);
  EXPECT_EQ(n.ops[1].name, "layer1.0.relu");
  EXPECT_EQ(n.ops[2].name, "layer1.0.relu#2");
  EXPECT_EQ(n.ops[4].name, "layer1.0.relu#3");
  EXPECT_EQ(n.ops[4].module, "layer1.0.relu");
  EXPECT_EQ(n.ops[3].module, "");
  EXPECT_EQ(n.ops[5].module, "");
  EXPECT_EQ(n.functional_layer_count(), 3);  // stem, layer1.0.relu, forward
  // stem is its own block; the closing mean and flatten have no block after them, so they join
  // layer1.0.
  ASSERT_EQ(n.blocks.size(), 2u);
  EXPECT_EQ(n.blocks[0].name, "stem");
  EXPECT_EQ(n.blocks[0].type, "Conv2d");
  EXPECT_EQ(n.blocks[1].name, "layer1.0");
  EXPECT_EQ(n.blocks[1].first, 1);
  EXPECT_EQ(n.blocks[1].last, 7);
}

TEST(network_builder, glue_between_modules_opens_the_block_after_it) {
  network_builder b("n", {4, 8, 8});
  auto x = b.adaptive_avg_pool("avgpool", b.input(), 1);
  x = b.flatten("flatten", x);  // glue before a lone module: fc's block starts with it
  x = b.linear("fc", x, 4);
  x = b.add("sum", x, x);  // glue before an explicit block: the block starts with it
  b.begin_block("head", "Sequential");
  b.activation("head.0", op_type::relu, x);
  b.end_block();
  const network n = b.build();
  ASSERT_EQ(n.blocks.size(), 3u);
  EXPECT_EQ(n.blocks[0].name, "avgpool");
  EXPECT_EQ(n.blocks[0].last, 1);  // ends in the module's own [4, 1, 1]
  EXPECT_EQ(n.blocks[1].name, "fc");
  EXPECT_EQ(n.blocks[1].type, "Linear");
  EXPECT_EQ(n.blocks[1].first, 1);
  EXPECT_EQ(n.blocks[1].last, 3);
  EXPECT_EQ(n.blocks[2].name, "head");
  EXPECT_EQ(n.blocks[2].first, 3);
  EXPECT_EQ(n.blocks[2].last, 5);
  const auto layers = layers_of(n, granularity::block);
  EXPECT_EQ(layers[0].output_shape, (shape{4, 1, 1}));
  EXPECT_EQ(layers[1].input_shapes, (std::vector<shape>{{4, 1, 1}}));

  // With no module at all, the glue is the network's one block.
  network_builder g("g", {4, 8, 8});
  g.flatten("flatten", g.input());
  const network only = g.build();
  ASSERT_EQ(only.blocks.size(), 1u);
  EXPECT_EQ(only.blocks[0].name, "flatten");
  EXPECT_EQ(only.blocks[0].type, "Flatten");
}

TEST(network_builder, block_misuse_is_a_logic_error) {
  network_builder b("n", {4, 8, 8});
  b.begin_block("a", "Sequential");
  EXPECT_THROW(b.begin_block("b", "Sequential"), std::logic_error);
  EXPECT_THROW(b.end_block(), std::logic_error);  // empty block
  b.activation("a.0", op_type::relu, b.input());
  EXPECT_THROW(b.build(), std::logic_error);  // still open
  b.end_block();
  EXPECT_THROW(b.end_block(), std::logic_error);
  EXPECT_EQ(b.build().blocks.size(), 1u);
  EXPECT_THROW(network_builder("none", {1}).build(), std::logic_error);
}

TEST(network_builder, append_infers_what_the_caller_left_out) {
  network_builder b("n", {3, 32, 32});
  op o;
  o.name = "conv";
  o.type = op_type::conv2d;
  o.inputs = {k_network_input};
  o.out_channels = 16;
  o.kernel_h = 3;
  o.kernel_w = 1;
  o.pad_h = 1;
  o.bias = true;
  o.params = 999;  // recomputed
  auto v = b.append(o, "conv");
  EXPECT_EQ(b.shape_of(v), (shape{16, 32, 32}));
  op bad = o;
  bad.name = "later";
  bad.inputs = {5};
  EXPECT_EQ(shape_error_op([&] { b.append(bad, "later"); }), "later");
  const network n = b.build();
  EXPECT_EQ(n.ops[0].params, 16 * 3 * 3 + 16);
  EXPECT_EQ(n.ops[0].input_shapes, (std::vector<shape>{{3, 32, 32}}));
}

TEST(network_builder, sizes_stay_far_from_overflow) {
  // Self-concatenation doubles the channels per op: refused once past 2^24, never wrapped.
  network_builder b("n", {65536, 2, 2});
  auto x = b.input();
  std::string refused;
  for (int i = 0; i < 40 && refused.empty(); ++i) {
    const std::string name = "cat" + std::to_string(i);
    refused = shape_error_op([&] { x = b.concat(name, {x, x}); });
  }
  EXPECT_EQ(refused, "cat8");  // 65536 * 2^8 = 2^24 is the last that fits
  EXPECT_EQ(b.shape_of(x).at(0), std::int64_t{1} << 24);

  // Each conv is under the per-op cap; the network's total is what stops them.
  network_builder c("big", {65536, 2048, 2048});
  auto y = c.input();
  refused.clear();
  int added = 0;
  for (int i = 0; i < 100 && refused.empty(); ++i) {
    const std::string name = "conv" + std::to_string(i);
    refused = shape_error_op([&] { y = c.conv2d(name, y, 65536, conv(1)); });
    if (refused.empty()) ++added;
  }
  EXPECT_FALSE(refused.empty());
  EXPECT_GT(added, 0);
  const auto net = c.build();
  EXPECT_GT(net.macs(), 0);  // the sum did not wrap
  EXPECT_LT(static_cast<double>(net.macs()), 1e17);
}

TEST(network_builder, pooling_refuses_dilation) {
  network_builder b("n", {3, 8, 8});
  op pool;
  pool.name = "pool";
  pool.type = op_type::max_pool;
  pool.kernel_h = pool.kernel_w = 2;
  pool.stride_h = pool.stride_w = 2;
  pool.dilation = 2;
  pool.inputs = {b.input()};
  EXPECT_EQ(shape_error_op([&] { b.append(pool, "pool"); }), "pool");
  pool.dilation = 1;
  EXPECT_EQ(b.shape_of(b.append(pool, "pool")), (shape{3, 4, 4}));
}
