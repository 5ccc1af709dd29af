// cuBLAS GEMM on a real GPU: numerics for half/float/double with tensor cores on and off, and
// the kernels that ran (tensor-core kernels only when tensor cores were requested).
#include <cmath>
#include <optional>
#include <iostream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include <jetperf/workloads/cuda_plugin.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

using namespace jetperf::workloads;

namespace {

std::vector<double> naive(const std::vector<double>& a, const std::vector<double>& b, int m, int n, int k) {
  std::vector<double> c(static_cast<std::size_t>(m) * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int p = 0; p < k; ++p)
      for (int i = 0; i < m; ++i) c[i + static_cast<std::size_t>(j) * m] += a[i + p * m] * b[p + j * k];
  return c;
}

// Error bound relative to sum |a||b| of each element: fp16 storage/accumulation, TF32 inputs.
double tolerance(gemm_dtype d, bool tensor) {
  if (d == gemm_dtype::half) return 2e-2;
  if (d == gemm_dtype::single) return tensor ? 5e-3 : 1e-5;
  return 1e-12;
}

class cublas_gemm : public ::testing::TestWithParam<std::tuple<gemm_dtype, bool>> {};

// What the GPU itself lacks, from its compute capability (not from the backend's own answer):
// tensor cores came with sm_70 (Volta, Xavier), FP64 tensor cores with sm_80 (Ampere, Orin).
std::optional<std::string> missing_on_this_gpu(gemm_dtype dtype, bool tensor) {
  const auto* plugin = cuda_plugin();
  if (!plugin) return std::nullopt;
  const auto info = plugin->query_device();
  const int sm = info.sm_major * 10 + info.sm_minor;
  if (tensor && sm < 70) return "no tensor cores";
  if (tensor && dtype == gemm_dtype::double_ && sm < 80) return "no FP64 tensor cores";
  return std::nullopt;
}

}  // namespace

TEST_P(cublas_gemm, matches_a_naive_loop_and_records_kernels) {
  const auto [dtype, tensor] = GetParam();
  std::string why;
  auto be = make_cuda_gemm_backend(&why);
  if (!be) GTEST_SKIP() << why;  // no device, or a build without CUDA
  // Where the GPU lacks the hardware, the backend must say so and refuse; elsewhere it must run.
  if (const auto missing = missing_on_this_gpu(dtype, tensor)) {
    const auto reason = be->supports(dtype, tensor);
    ASSERT_TRUE(reason) << *missing << ", yet the backend offers it";
    EXPECT_THROW(be->prepare(64, 64, 64, dtype, tensor), std::runtime_error);
    return;
  }
  ASSERT_FALSE(be->supports(dtype, tensor)) << *be->supports(dtype, tensor);

  const int m = 192, n = 160, k = 128;  // rectangular: a transposed layout would fail
  be->prepare(m, n, k, dtype, tensor);
  std::vector<double> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(static_cast<int>(i % 17) - 8) / 8.0;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>(static_cast<int>(i % 13) - 6) / 8.0;
  be->set_inputs(a, b);
  const double t = be->timed_run_s();
  EXPECT_GT(t, 0);
  const auto c = be->result();
  const auto want = naive(a, b, m, n, k);
  ASSERT_EQ(c.size(), want.size());
  const double tol = tolerance(dtype, tensor) * k;  // |a|,|b| <= 1
  std::size_t bad = 0;
  for (std::size_t i = 0; i < c.size(); ++i) bad += std::fabs(c[i] - want[i]) > tol;
  EXPECT_EQ(bad, 0u) << "elements outside " << tol;

  const auto kernels = be->kernel_names();
  std::string list;
  bool any_tensor = false;
  for (const auto& kn : kernels) {
    list += kn + " ";
    any_tensor = any_tensor || is_tensor_core_kernel(kn);
  }
  RecordProperty("kernels", list);
  RecordProperty("math_mode", be->math_mode());
  std::cout << to_string(dtype) << " tensor=" << tensor << " math=" << be->math_mode() << " kernels: " << list
            << "\n";
  if (kernels.size() == 1 && kernels[0] == "unknown") return;  // no CUPTI in this build
  if (!tensor) {
    EXPECT_FALSE(any_tensor) << "tensor cores used although pedantic math was requested: " << list;
  }
  if (tensor && dtype == gemm_dtype::half) {
    EXPECT_TRUE(any_tensor) << "half with tensor on ran no tensor-core kernel";
  }
}

INSTANTIATE_TEST_SUITE_P(all, cublas_gemm,
                         ::testing::Combine(::testing::Values(gemm_dtype::half, gemm_dtype::single,
                                                              gemm_dtype::double_),
                                            ::testing::Bool()),
                         [](const auto& info) {
                           return to_string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_tensor_on" : "_tensor_off");
                         });
