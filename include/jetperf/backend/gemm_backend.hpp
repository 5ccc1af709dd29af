#pragma once
// One GEMM library behind one interface (nvbench-style: CUDA stays behind it), so the sweep,
// the measurement loop and the tests see OpenBLAS/oneDNN and cuBLAS alike.
// C = A * B with A m x k, B k x n, C m x n, all column-major, alpha = 1, beta = 0.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/backend/kernel_trace.hpp>

namespace jetperf::workloads {

class gemm_backend {
 public:
  virtual ~gemm_backend() = default;
  /// "openblas", "onednn+openblas", "cublas".
  virtual std::string name() const = 0;
  /// nullopt when (dtype, tensor) can run here, else why not (recorded as the point's skip reason).
  virtual std::optional<std::string> supports(gemm_dtype dtype, bool tensor) const = 0;
  /// Allocates and fills A and B (deterministic pseudo-random values in [-1, 1]), clears C.
  /// Throws std::runtime_error (or a subclass) on failure.
  virtual void prepare(std::int64_t m, std::int64_t n, std::int64_t k, gemm_dtype dtype, bool tensor) = 0;
  /// Launches one GEMM (asynchronous on a GPU).
  virtual void run_once() = 0;
  /// Waits for every launched GEMM.
  virtual void sync() = 0;
  /// One GEMM timed by the backend's own clock, in seconds: CUDA events on a GPU, steady_clock
  /// around run_once + sync on the CPU.
  virtual double timed_run_s() = 0;
  /// Names of the kernels that ran since prepare(); {"unknown"} when they cannot be recorded.
  virtual std::vector<std::string> kernel_names() { return {"unknown"}; }
  /// Records the GPU kernels of the runs between its start() and stop() (CUPTI); nullptr on
  /// the CPU or in a build without CUPTI.
  virtual kernel_tracer* tracer() { return nullptr; }
  /// The math mode actually configured ("pedantic", "default", "tensor_op", "cpu").
  virtual std::string math_mode() const = 0;
  /// Replaces A (m x k) and B (k x n), column-major, converted to the prepared dtype (for tests).
  virtual void set_inputs(const std::vector<double>& a, const std::vector<double>& b) = 0;
  /// C (m x n), column-major, converted to double (waits for pending work).
  virtual std::vector<double> result() = 0;
  /// Sets the CPU thread count (0 = library default); ignored by GPU backends.
  virtual void set_threads(int threads) {}
};

/// Floating-point operations of one GEMM: 2 m n k.
inline double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

/// True when a kernel name marks a tensor-core kernel (tensorop, hmma, xmma, gmma, s16816, h1688, ...).
bool is_tensor_core_kernel(const std::string& name);

}  // namespace jetperf::workloads
