#include <jetperf/workloads/gemm_backends.hpp>

#include <cmath>

#include <gtest/gtest.h>

#include <jetperf/workloads/detail/half_bits.hpp>

using namespace jetperf::workloads;

namespace {

std::vector<double> naive(const std::vector<double>& a, const std::vector<double>& b, int m, int n, int k) {
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p) c[i + j * m] += a[i + p * m] * b[p + j * k];
  return c;
}

void check_against_naive(gemm_backend& be, gemm_dtype dtype, double tol) {
  const int m = 7, n = 5, k = 3;  // rectangular on purpose: catches transposed layouts
  be.prepare(m, n, k, dtype, false);
  std::vector<double> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.25 * static_cast<double>(i % 7) - 0.5;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.125 * static_cast<double>(i % 5) + 0.25;
  be.set_inputs(a, b);
  be.run_once();
  be.sync();
  const auto c = be.result();
  const auto want = naive(a, b, m, n, k);
  ASSERT_EQ(c.size(), want.size());
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i], want[i], tol) << "element " << i;
}

}  // namespace

TEST(cpu_gemm_backend, float_and_double_match_a_naive_loop) {
  std::string why;
  auto be = make_cpu_gemm_backend(&why);
  if (!be) GTEST_SKIP() << why;
  if (auto r = be->supports(gemm_dtype::single, false)) GTEST_SKIP() << *r;
  check_against_naive(*be, gemm_dtype::single, 1e-5);
  check_against_naive(*be, gemm_dtype::double_, 1e-12);
}

TEST(cpu_gemm_backend, half_matches_a_naive_loop_or_says_why_not) {
  std::string why;
  auto be = make_cpu_gemm_backend(&why);
  if (!be) GTEST_SKIP() << why;
  if (auto r = be->supports(gemm_dtype::half, false)) GTEST_SKIP() << *r;
  check_against_naive(*be, gemm_dtype::half, 2e-2);
}

TEST(cpu_gemm_backend, tensor_is_refused_with_a_reason_and_gflops_are_positive) {
  std::string why;
  auto be = make_cpu_gemm_backend(&why);
  if (!be) GTEST_SKIP() << why;
  ASSERT_TRUE(be->supports(gemm_dtype::single, true).has_value());
  if (be->supports(gemm_dtype::single, false)) GTEST_SKIP() << "no float GEMM in this build";
  be->prepare(128, 128, 128, gemm_dtype::single, false);
  const double t = be->timed_run_s();
  EXPECT_GT(t, 0);
  EXPECT_GT(gemm_flops(128, 128, 128) / t / 1e9, 0);
  EXPECT_EQ(be->kernel_names(), std::vector<std::string>{"cblas_sgemm"});
}

TEST(half_bits, round_trips_and_rounds) {
  using namespace jetperf::workloads::detail;
  for (float f : {0.0f, 1.0f, -2.5f, 0.333251953125f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f})
    EXPECT_EQ(half_bits_to_float(float_to_half_bits(f)), f) << f;
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3c00);
  EXPECT_TRUE(std::isinf(half_bits_to_float(float_to_half_bits(1e6f))));
  EXPECT_EQ(float_to_half_bits(1.0f + 1.0f / 4096), 0x3c00);  // ties to even
}

TEST(tensor_kernel_names, markers) {
  EXPECT_TRUE(is_tensor_core_kernel("sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32"));
  EXPECT_TRUE(is_tensor_core_kernel("volta_h884gemm_128x64_ldg8_nn"));
  EXPECT_TRUE(is_tensor_core_kernel("ampere_s16816gemm_fp16_128x128"));
  EXPECT_TRUE(is_tensor_core_kernel("cutlass_80_tensorop_d884gemm_64x64"));
  EXPECT_FALSE(is_tensor_core_kernel("volta_sgemm_128x64_nn"));
  EXPECT_FALSE(is_tensor_core_kernel("maxwell_dgemm_64x64_nn"));
}
