#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include <jetperf/models/network_builder.hpp>

using namespace jetperf::models;

namespace {

/// x -> conv a -> relu b -> add(a-branch, x-branch via conv c) : a small residual graph.
network residual() {
  network_builder b("residual", {4, 8, 8});
  conv_options o;
  o.kernel = 3;
  o.padding = 1;
  auto a = b.conv2d("a", b.input(), 4, o);                   // 0
  auto r = b.activation("r", op_type::relu, a);              // 1
  auto c = b.conv2d("c", b.input(), 4, conv_options{});      // 2
  auto s = b.add("s", r, c);                                 // 3
  b.flatten("f", s);                                         // 4
  return b.build();
}

}  // namespace

TEST(network, totals_and_functional_count) {
  const network n = residual();
  EXPECT_EQ(n.params(), 4 * 4 * 9 + 4 * 4);
  EXPECT_EQ(n.macs(), 4 * 64 * 4 * 9 + 4 * 64 * 4);
  // conv/linear count 2 FLOPs per MAC; relu and add one per element; flatten none.
  EXPECT_EQ(n.flops(), 2 * n.macs() + 256 + 256);
  EXPECT_EQ(n.functional_layer_count(), 3 + 1);  // a, r, c (+ forward)
  // A range of ops (a multi-DNN stage): its own modules plus its forward.
  EXPECT_EQ(functional_layer_count(n, 0, 2), 2 + 1);  // a, r
  EXPECT_EQ(functional_layer_count(n, 3, 5), 0 + 1);  // s and f are functional steps
  EXPECT_EQ(functional_layer_count(n, 0, 5), n.functional_layer_count());
}

TEST(network, granularity_names) {
  EXPECT_EQ(parse_granularity("op"), granularity::op);
  EXPECT_EQ(parse_granularity("block"), granularity::block);
  EXPECT_EQ(to_string(granularity::block), "block");
  EXPECT_THROW(parse_granularity("layer"), std::invalid_argument);
}

TEST(network, make_layer_lists_external_producers_in_first_use_order) {
  const network n = residual();
  // [1, 4): r reads a (op 0), c reads the input, s reads r and c (inside).
  const layer l = make_layer(n, 1, 4);
  ASSERT_EQ(l.inputs, (std::vector<int>{0, k_network_input}));
  EXPECT_EQ(l.input_shapes[0], (shape{4, 8, 8}));
  EXPECT_EQ(l.input_shapes[1], (shape{4, 8, 8}));
  EXPECT_EQ(l.output_shape, (shape{4, 8, 8}));
  EXPECT_EQ(l.params, 16);
  // The input used twice ([0, 3): a and c) is listed once.
  EXPECT_EQ(make_layer(n, 0, 3).inputs, (std::vector<int>{k_network_input}));
  EXPECT_THROW(make_layer(n, 2, 2), std::out_of_range);
  EXPECT_THROW(make_layer(n, 0, 6), std::out_of_range);
}

TEST(network, layers_at_both_granularities) {
  const network n = residual();
  const auto ops = layers_of(n, granularity::op);
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[3].name, "s");
  EXPECT_EQ(ops[3].type, "add");
  EXPECT_EQ(ops[3].index, 3);
  EXPECT_EQ(ops[3].inputs, (std::vector<int>{1, 2}));
  // Blocks: a, r, c are leaf modules (own blocks); s and f are functional and join c's block.
  const auto blocks = layers_of(n, granularity::block);
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[2].name, "c");
  EXPECT_EQ(blocks[2].type, "Conv2d");
  EXPECT_EQ(blocks[2].first, 2);
  EXPECT_EQ(blocks[2].last, 5);
  EXPECT_EQ(blocks[2].output_shape, (shape{256}));
  EXPECT_EQ(blocks[2].inputs, (std::vector<int>{k_network_input, 1}));
}

TEST(network, whole_network_and_working_set) {
  const network n = residual();
  const layer w = whole_network(n);
  EXPECT_EQ(w.index, -1);
  EXPECT_EQ(w.name, "residual");
  EXPECT_EQ(w.type, "network");
  EXPECT_EQ(w.first, 0);
  EXPECT_EQ(w.last, 5);
  EXPECT_EQ(w.macs, n.macs());
  // input 256 + five outputs of 256 elements, times the batch, plus the 160 weights once.
  EXPECT_EQ(layer_working_set_bytes(n, w, 2, 4), ((256 + 5 * 256) * 2 + 160) * 4);
  const layer one = make_layer(n, 0, 1);
  EXPECT_EQ(layer_working_set_bytes(n, one, 1, 2), (256 + 256 + 144) * 2);
}

TEST(network, a_working_set_past_int64_saturates_instead_of_wrapping) {
  // The largest input a user network may declare: 2^48 elements, and its relu's output as many.
  network_builder b("huge", {65536, 65536, 65536});
  b.activation("r", op_type::relu, b.input());
  const network n = b.build();
  const layer r = make_layer(n, 0, 1);
  EXPECT_EQ(layer_working_set_bytes(n, r, 1, 4), std::int64_t{1} << 51);  // 2^49 elements of 4 bytes
  // 2^49 x 2^16 x 4 = 2^67 bytes: wrapped, exactly 0, which any memory check would accept.
  EXPECT_EQ(layer_working_set_bytes(n, r, 65536, 4), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(layer_working_set_bytes(n, r, 32768, 4), std::numeric_limits<std::int64_t>::max());
  // At the edge: 2^62 bytes is exact, 2^63 is one past the largest int64.
  EXPECT_EQ(layer_working_set_bytes(n, r, 4096, 2), std::int64_t{1} << 62);
  EXPECT_EQ(layer_working_set_bytes(n, r, 8192, 2), std::numeric_limits<std::int64_t>::max());
}
