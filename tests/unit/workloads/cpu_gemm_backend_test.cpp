#include <jetperf/workloads/gemm_backends.hpp>

#include <cmath>

#include <gtest/gtest.h>

#include <jetperf/config.hpp>

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

/// The CPU backend of this build; every build that has OpenBLAS or oneDNN has one.
std::unique_ptr<gemm_backend> cpu_backend() {
  std::string why;
  auto be = make_cpu_gemm_backend(&why);
  if (!JETPERF_HAS_OPENBLAS && !JETPERF_HAS_ONEDNN) {
    EXPECT_EQ(be, nullptr);
    EXPECT_EQ(why, "CPU GEMM is not supported by this build (neither OpenBLAS nor oneDNN)");
  } else {
    EXPECT_NE(be, nullptr) << why;
  }
  return be;
}

TEST(cpu_gemm_backend, float_support_follows_the_build) {
  auto be = cpu_backend();
  if (!JETPERF_HAS_OPENBLAS && !JETPERF_HAS_ONEDNN) return;  // no backend at all: checked above
  ASSERT_NE(be, nullptr);
  const auto why = be->supports(gemm_dtype::single, false);
  if (JETPERF_HAS_OPENBLAS) {
    EXPECT_FALSE(why.has_value()) << *why;
  } else {
    ASSERT_TRUE(why.has_value());
    EXPECT_EQ(*why, "CPU GEMM is not supported by this build (no OpenBLAS)");
    EXPECT_THROW(be->prepare(8, 8, 8, gemm_dtype::single, false), std::runtime_error);
  }
}

#if JETPERF_HAS_OPENBLAS
TEST(cpu_gemm_backend, float_and_double_match_a_naive_loop) {
  auto be = cpu_backend();
  ASSERT_NE(be, nullptr);
  check_against_naive(*be, gemm_dtype::single, 1e-5);
  check_against_naive(*be, gemm_dtype::double_, 1e-12);
}

TEST(cpu_gemm_backend, tensor_is_refused_with_a_reason_and_gflops_are_positive) {
  auto be = cpu_backend();
  ASSERT_NE(be, nullptr);
  ASSERT_TRUE(be->supports(gemm_dtype::single, true).has_value());
  be->prepare(128, 128, 128, gemm_dtype::single, false);
  const double t = be->timed_run_s();
  EXPECT_GT(t, 0);
  EXPECT_GT(gemm_flops(128, 128, 128) / t / 1e9, 0);
  EXPECT_EQ(be->kernel_names(), std::vector<std::string>{"cblas_sgemm"});
}
#endif  // JETPERF_HAS_OPENBLAS

// Half runs through oneDNN's f16 matmul, which exists only on CPUs with f16 arithmetic
// (AVX512-FP16, AMX, ARMv8.2 FP16): either it matches a naive loop, or the backend says why not
// and refuses to prepare it. Both answers are checked; neither is a skip.
TEST(cpu_gemm_backend, half_matches_a_naive_loop_or_says_why_not) {
  auto be = cpu_backend();
  if (!JETPERF_HAS_OPENBLAS && !JETPERF_HAS_ONEDNN) return;  // no backend at all: checked above
  ASSERT_NE(be, nullptr);
  if (const auto why = be->supports(gemm_dtype::half, false)) {
    const std::string expected = JETPERF_HAS_ONEDNN ? "half GEMM not supported on this CPU by oneDNN: "
                                                    : "half on the CPU is not supported by this build (no oneDNN)";
    EXPECT_EQ(why->rfind(expected, 0), 0u) << *why;
    EXPECT_THROW(be->prepare(8, 8, 8, gemm_dtype::half, false), std::runtime_error);
    return;
  }
  check_against_naive(*be, gemm_dtype::half, 2e-2);
}
