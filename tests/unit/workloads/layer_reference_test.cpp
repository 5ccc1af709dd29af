// The reference ops against values computed by hand, and the reference backend's wiring.
#include <jetperf/workloads/detail/reference_ops.hpp>

#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

#include <jetperf/backend/layer_data.hpp>
#include <jetperf/models/network_builder.hpp>
#include <jetperf/workloads/layer_backends.hpp>

using namespace jetperf;
using namespace jetperf::workloads;
using models::network_builder;
using models::op_type;

namespace {

// Runs the only (or last) op of `net` on `x` with hand-made weights.
std::vector<float> run_last(const models::network& net, const std::vector<std::vector<float>>& xs,
                            const op_weights& w = {}, std::int64_t batch = 1) {
  const auto& o = net.ops.back();
  std::vector<const float*> ptrs;
  for (const auto& x : xs) ptrs.push_back(x.data());
  std::vector<float> out;
  detail::run_reference_op(o, batch, ptrs, w, out);
  return out;
}

std::vector<float> iota(std::size_t n, float start = 0.0f) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

void expect_values(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace

TEST(reference_ops, conv_1x1_with_bias) {
  network_builder b("t", {2, 2, 2});
  b.conv2d("conv", b.input(), 1, {1, 1, 0, 1, 1, true});
  op_weights w;
  w.weight = {2.0f, -1.0f};
  w.bias = {0.5f};
  const auto y = run_last(b.build(), {{1, 2, 3, 4, 0.5f, 0.5f, 1, 1}}, w);
  expect_values(y, {2.0f, 4.0f, 5.5f, 7.5f});
}

TEST(reference_ops, conv_3x3_padded) {
  network_builder b("t", {1, 3, 3});
  b.conv2d("conv", b.input(), 2, {3, 1, 1, 1, 1, false});
  op_weights w;
  w.weight.assign(18, 0.0f);
  std::fill(w.weight.begin(), w.weight.begin() + 9, 1.0f);  // channel 0: a box sum
  w.weight[9] = 1.0f;                                        // channel 1: only the top-left tap
  const auto y = run_last(b.build(), {iota(9, 1.0f)}, w);
  expect_values(y, {12, 21, 16, 27, 45, 33, 24, 39, 28,  // box sums with zero padding
                    0, 0, 0, 0, 1, 2, 0, 4, 5});          // out(y, x) = in(y - 1, x - 1)
}

TEST(reference_ops, conv_3x3_strided) {
  network_builder b("t", {1, 4, 4});
  b.conv2d("conv", b.input(), 1, {3, 2, 1, 1, 1, false});
  op_weights w;
  w.weight.assign(9, 0.0f);
  w.weight[4] = 1.0f;  // the centre tap: samples the input at the stride
  expect_values(run_last(b.build(), {iota(16)}, w), {0, 2, 8, 10});
}

TEST(reference_ops, grouped_conv_reads_its_group_only) {
  network_builder b("t", {4, 1, 1});
  b.conv2d("conv", b.input(), 2, {1, 1, 0, 2, 1, false});
  op_weights w;
  w.weight = {1, 10, 100, 1000};
  expect_values(run_last(b.build(), {{1, 2, 3, 4}}, w), {21, 4300});
}

TEST(reference_ops, max_pool_ceil_mode) {
  network_builder b("t", {1, 5, 5});
  b.max_pool("pool", b.input(), 2, 2, 0, true);
  const auto net = b.build();
  EXPECT_EQ(net.ops.back().output_shape, (models::shape{1, 3, 3}));
  expect_values(run_last(net, {iota(25)}), {6, 8, 9, 16, 18, 19, 21, 23, 24});
}

TEST(reference_ops, max_pool_padding_is_minus_infinity) {
  network_builder b("t", {1, 2, 2});
  b.max_pool("pool", b.input(), 3, 2, 1);
  expect_values(run_last(b.build(), {{-4, -3, -2, -1}}), {-1});
}

TEST(reference_ops, avg_pool_count_include_pad) {
  for (const bool include : {true, false}) {
    network_builder b("t", {1, 3, 3});
    b.avg_pool("pool", b.input(), 2, 2, 1, false, include);
    const auto y = run_last(b.build(), {std::vector<float>(9, 1.0f)});
    // Corner windows hold one real element out of four.
    expect_values(y, include ? std::vector<float>{0.25f, 0.5f, 0.5f, 1.0f} : std::vector<float>{1, 1, 1, 1});
  }
}

TEST(reference_ops, avg_pool_ceil_mode_divisor_stops_at_padded_edge) {
  network_builder b("t", {1, 1, 3});
  b.avg_pool("pool", b.input(), 2, 2, 0, true, true);
  // Windows [0, 2) and [2, 4): torch divides the last one by 1 (clipped to in + pad = 3).
  expect_values(run_last(b.build(), {{1, 3, 5}}), {2, 5});
}

TEST(reference_ops, adaptive_avg_pool_non_uniform_windows) {
  network_builder b("t", {1, 5, 5});
  b.adaptive_avg_pool("pool", b.input(), 3);
  // Rows [0,2), [1,4), [3,5): means 0.5, 2, 3.5; the value is 5 * row mean + column mean.
  expect_values(run_last(b.build(), {iota(25)}), {3, 4.5f, 6, 10.5f, 12, 13.5f, 18, 19.5f, 21});
}

TEST(reference_ops, channel_shuffle_matches_torch_order) {
  {
    network_builder b("t", {6, 1, 1});
    b.channel_shuffle("shuffle", b.input(), 2);
    expect_values(run_last(b.build(), {iota(6)}), {0, 3, 1, 4, 2, 5});
  }
  {
    network_builder b("t", {6, 1, 1});
    b.channel_shuffle("shuffle", b.input(), 3);
    expect_values(run_last(b.build(), {iota(6)}), {0, 2, 4, 1, 3, 5});
  }
}

TEST(reference_ops, chunk_takes_a_channel_slice) {
  network_builder b("t", {6, 1, 2});
  b.chunk("chunk", b.input(), 3, 1);
  // Two samples: the slice comes from each.
  expect_values(run_last(b.build(), {iota(24)}, {}, 2), {4, 5, 6, 7, 16, 17, 18, 19});
}

TEST(reference_ops, activations_at_known_points) {
  const std::vector<float> x{-4, -1, 0, 1, 4};
  const auto act = [&](op_type t) {
    network_builder b("t", {5, 1, 1});
    b.activation("act", t, b.input());
    return run_last(b.build(), {x});
  };
  expect_values(act(op_type::hardswish), {0, -1.0f / 3, 0, 2.0f / 3, 4});
  expect_values(act(op_type::hardsigmoid), {0, 1.0f / 3, 0.5f, 2.0f / 3, 1});
  expect_values(act(op_type::relu), {0, 0, 0, 1, 4});
  expect_values(act(op_type::relu6), {0, 0, 0, 1, 4});
  expect_values(act(op_type::sigmoid), {1 / (1 + std::exp(4.0f)), 1 / (1 + std::exp(1.0f)), 0.5f,
                                        1 / (1 + std::exp(-1.0f)), 1 / (1 + std::exp(-4.0f))});
  expect_values(act(op_type::silu), {-4 / (1 + std::exp(4.0f)), -1 / (1 + std::exp(1.0f)), 0,
                                     1 / (1 + std::exp(-1.0f)), 4 / (1 + std::exp(-4.0f))});
}

TEST(reference_ops, relu6_clips_at_six) {
  network_builder b("t", {2, 1, 1});
  b.activation("act", op_type::relu6, b.input());
  expect_values(run_last(b.build(), {{7, 5.5f}}), {6, 5.5f});
}

TEST(reference_ops, batch_norm_inference) {
  network_builder b("t", {2, 1, 2});
  b.batch_norm("bn", b.input(), 1.0);
  op_weights w;
  w.weight = {2, 1};
  w.bias = {0.5f, 0};
  w.running_mean = {1, -1};
  w.running_var = {3, 0};
  // Channel 0: (x - 1) * 2 / sqrt(4) + 0.5; channel 1: (x + 1) / sqrt(1).
  expect_values(run_last(b.build(), {{3, 1, 2, -1}}, w), {2.5f, 0.5f, 3, 0});
}

TEST(reference_ops, linear_with_bias) {
  network_builder b("t", {3});
  b.linear("fc", b.input(), 2, true);
  op_weights w;
  w.weight = {1, 2, 3, -1, 0, 1};
  w.bias = {0.5f, -0.5f};
  expect_values(run_last(b.build(), {{1, 1, 2, 0, 1, 0}}, w, 2), {9.5f, 0.5f, 2.5f, -0.5f});
}

TEST(reference_ops, add_mul_concat_flatten) {
  network_builder b("t", {2, 1, 2});
  const auto pooled = b.adaptive_avg_pool("pool", b.input(), 1);
  const auto scaled = b.mul("mul", b.input(), pooled);
  const auto sum = b.add("add", scaled, b.input());
  const auto cat = b.concat("cat", {sum, b.input()});
  b.flatten("flatten", cat);
  const auto net = b.build();
  const std::vector<float> x{1, 3, -2, 4};
  std::vector<float> pool_out, mul_out, add_out, cat_out, flat_out;
  detail::run_reference_op(net.ops[0], 1, {x.data()}, {}, pool_out);
  expect_values(pool_out, {2, 1});
  detail::run_reference_op(net.ops[1], 1, {x.data(), pool_out.data()}, {}, mul_out);
  expect_values(mul_out, {2, 6, -2, 4});
  detail::run_reference_op(net.ops[2], 1, {mul_out.data(), x.data()}, {}, add_out);
  expect_values(add_out, {3, 9, -4, 8});
  detail::run_reference_op(net.ops[3], 1, {add_out.data(), x.data()}, {}, cat_out);
  expect_values(cat_out, {3, 9, -4, 8, 1, 3, -2, 4});
  detail::run_reference_op(net.ops[4], 1, {cat_out.data()}, {}, flat_out);
  expect_values(flat_out, cat_out);
}

TEST(reference_ops, malformed_op_throws) {
  network_builder b("t", {2, 1, 1});
  b.conv2d("conv", b.input(), 1, {});
  const auto net = b.build();
  std::vector<float> x{1, 2}, out;
  op_weights w;
  w.weight = {1};  // one weight short
  EXPECT_THROW(detail::run_reference_op(net.ops[0], 1, {x.data()}, w, out), std::invalid_argument);
  EXPECT_THROW(detail::run_reference_op(net.ops[0], 1, {}, w, out), std::invalid_argument);
}

TEST(reference_backend, runs_a_block_with_an_external_input) {
  network_builder b("t", {4, 5, 5});
  const auto c1 = b.conv2d("c1", b.input(), 4, {3, 1, 1, 1, 1, false});
  b.begin_block("blk", "BasicBlock");
  const auto c2 = b.conv2d("blk.c2", c1, 4, {1, 1, 0, 1, 1, true});
  const auto r = b.activation("blk.relu", op_type::relu, c2);
  b.add("blk.add", r, c1);
  b.end_block();
  const auto net = b.build();
  const auto l = models::make_layer(net, 1, 4);
  ASSERT_EQ(l.inputs, (std::vector<int>{0}));

  auto be = make_reference_layer_backend();
  EXPECT_EQ(be->name(), "reference");
  ASSERT_FALSE(be->supports(net, l, gemm_dtype::single).has_value());
  be->prepare(net, l, 2, gemm_dtype::single);
  std::vector<float> x(2 * 4 * 25, 0.0f);
  x[0] = 1.0f;
  be->set_input(0, x);
  be->run_once();
  be->sync();
  const auto y = be->output();
  ASSERT_EQ(y.size(), x.size());
  // Recompute by hand: relu(conv1x1(x) + bias) + x, with the backend's deterministic weights.
  const auto w = make_op_weights(net.ops[1], 1);
  for (int oc = 0; oc < 4; ++oc) {
    const float at0 = std::max(w.weight[oc * 4] * 1.0f + w.bias[oc], 0.0f) + (oc == 0 ? 1.0f : 0.0f);
    EXPECT_NEAR(y[oc * 25], at0, 1e-6f);
    EXPECT_NEAR(y[oc * 25 + 7], std::max(w.bias[oc], 0.0f), 1e-6f);
  }
  EXPECT_THROW(be->set_input(1, x), std::out_of_range);
  EXPECT_THROW(be->set_input(0, std::vector<float>(3)), std::invalid_argument);
  EXPECT_GT(be->timed_run_s(), 0.0);
}

TEST(reference_backend, half_rounds_but_stays_close_to_float) {
  network_builder b("t", {8, 6, 6});
  const auto c = b.conv2d("c", b.input(), 8, {3, 1, 1, 1, 1, false});
  b.activation("s", op_type::silu, c);
  const auto net = b.build();
  const auto l = models::whole_network(net);
  auto f = make_reference_layer_backend(), h = make_reference_layer_backend();
  f->prepare(net, l, 1, gemm_dtype::single);
  h->prepare(net, l, 1, gemm_dtype::half);
  f->run_once(), h->run_once();
  const auto yf = f->output(), yh = h->output();
  double max_diff = 0;
  bool any_diff = false;
  for (std::size_t i = 0; i < yf.size(); ++i) {
    max_diff = std::max(max_diff, static_cast<double>(std::fabs(yf[i] - yh[i])));
    any_diff = any_diff || yf[i] != yh[i];
  }
  EXPECT_TRUE(any_diff);
  EXPECT_LT(max_diff, 2e-2);
  EXPECT_TRUE(f->supports(net, l, gemm_dtype::double_).has_value());
}

TEST(reference_backend, rejects_a_layer_outside_the_network) {
  network_builder b("t", {2, 2, 2});
  b.activation("r", op_type::relu, b.input());
  const auto net = b.build();
  auto l = models::whole_network(net);
  l.last = 5;
  auto be = make_reference_layer_backend();
  EXPECT_TRUE(be->supports(net, l, gemm_dtype::single).has_value());
  // A layer that does not fit its network is a caller's error, not something to skip.
  EXPECT_THROW(be->prepare(net, l, 1, gemm_dtype::single), std::invalid_argument);
  EXPECT_THROW(be->prepare(net, models::whole_network(net), 1, gemm_dtype::double_), layer_unsupported);
}
