// The CPU GEMM backend: OpenBLAS for float and double, oneDNN's f16 matmul for half.
#include <jetperf/config.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include <jetperf/backend/detail/half_bits.hpp>

#if JETPERF_HAS_OPENBLAS
#include <cblas.h>
#endif
#if JETPERF_HAS_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace jetperf::workloads {

namespace {

#if JETPERF_HAS_ONEDNN
// oneDNN's matmul is row-major, C = A * B. Column-major A (m x k) is row-major A^T, so the
// column-major product is computed as C^T (n x m) = B^T (n x k) * A^T (k x m) on the same memory.
class onednn_half_gemm {
 public:
  onednn_half_gemm(std::int64_t m, std::int64_t n, std::int64_t k)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    const dnnl::memory::desc src_md({n, k}, dt::f16, tag::ab);
    const dnnl::memory::desc wei_md({k, m}, dt::f16, tag::ab);
    const dnnl::memory::desc dst_md({n, m}, dt::f16, tag::ab);
#if DNNL_VERSION_MAJOR >= 3
    dnnl::matmul::primitive_desc pd(engine_, src_md, wei_md, dst_md);
#else
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src_md, wei_md, dst_md), engine_);
#endif
    prim_ = dnnl::matmul(pd);
    b_ = dnnl::memory(src_md, engine_);
    a_ = dnnl::memory(wei_md, engine_);
    c_ = dnnl::memory(dst_md, engine_);
  }
  std::uint16_t* a() { return static_cast<std::uint16_t*>(a_.get_data_handle()); }
  std::uint16_t* b() { return static_cast<std::uint16_t*>(b_.get_data_handle()); }
  std::uint16_t* c() { return static_cast<std::uint16_t*>(c_.get_data_handle()); }
  void run() { prim_.execute(stream_, {{DNNL_ARG_SRC, b_}, {DNNL_ARG_WEIGHTS, a_}, {DNNL_ARG_DST, c_}}); }
  void wait() { stream_.wait(); }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::matmul prim_;
  dnnl::memory a_, b_, c_;
};
#endif

class cpu_gemm_backend final : public gemm_backend {
 public:
  std::string name() const override {
    return std::string(JETPERF_HAS_OPENBLAS ? "openblas" : "") + (JETPERF_HAS_ONEDNN ? "+onednn" : "");
  }

  std::optional<std::string> supports(gemm_dtype dtype, bool tensor) const override {
    if (tensor) return "tensor cores are a GPU feature (device cpu)";
    if (dtype == gemm_dtype::half) {
#if JETPERF_HAS_ONEDNN
      // The f16 matmul exists only on CPUs with f16 arithmetic (AVX512-FP16, AMX, ARMv8.2 FP16).
      try {
        onednn_half_gemm probe(8, 8, 8);
      } catch (const std::exception& e) {
        return std::string("half GEMM not supported on this CPU by oneDNN: ") + e.what();
      }
      return std::nullopt;
#else
      return "half on the CPU is not supported by this build (no oneDNN)";
#endif
    }
#if JETPERF_HAS_OPENBLAS
    return std::nullopt;
#else
    return "CPU GEMM is not supported by this build (no OpenBLAS)";
#endif
  }

  void prepare(std::int64_t m, std::int64_t n, std::int64_t k, gemm_dtype dtype, bool tensor) override {
    if (auto why = supports(dtype, tensor)) throw std::runtime_error(*why);
    if (m <= 0 || n <= 0 || k <= 0) throw std::invalid_argument("GEMM dimensions must be positive");
    m_ = m, n_ = n, k_ = k, dtype_ = dtype;
    // The matrices of the last point go first: two sizes never live at once.
    std::vector<float>().swap(f32_a_), std::vector<float>().swap(f32_b_), std::vector<float>().swap(f32_c_);
    std::vector<double>().swap(f64_a_), std::vector<double>().swap(f64_b_), std::vector<double>().swap(f64_c_);
#if JETPERF_HAS_ONEDNN
    half_.reset();
#endif
    // Filled in the point's own dtype, in place: A, B and C are all the point holds (a float
    // 40000^3 GEMM is 19 GB; through double copies first it was 45 GB).
    const auto na = static_cast<std::size_t>(m * k), nb = static_cast<std::size_t>(k * n),
               nc = static_cast<std::size_t>(m * n);
    switch (dtype) {
      case gemm_dtype::single:
        fill(f32_a_, na, 1), fill(f32_b_, nb, 2);
        f32_c_.assign(nc, 0.0f);
        break;
      case gemm_dtype::double_:
        fill(f64_a_, na, 1), fill(f64_b_, nb, 2);
        f64_c_.assign(nc, 0.0);
        break;
      case gemm_dtype::half:
#if JETPERF_HAS_ONEDNN
        half_ = std::make_unique<onednn_half_gemm>(m, n, k);
        for (std::size_t i = 0; i < na; ++i) half_->a()[i] = detail::float_to_half_bits(static_cast<float>(detail::fill_value(i, 1)));
        for (std::size_t i = 0; i < nb; ++i) half_->b()[i] = detail::float_to_half_bits(static_cast<float>(detail::fill_value(i, 2)));
        for (std::size_t i = 0; i < nc; ++i) half_->c()[i] = 0;
#endif
        break;
    }
  }

  void run_once() override {
    switch (dtype_) {
      case gemm_dtype::single:
#if JETPERF_HAS_OPENBLAS
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m_), static_cast<int>(n_),
                    static_cast<int>(k_), 1.0f, f32_a_.data(), static_cast<int>(m_), f32_b_.data(),
                    static_cast<int>(k_), 0.0f, f32_c_.data(), static_cast<int>(m_));
#endif
        break;
      case gemm_dtype::double_:
#if JETPERF_HAS_OPENBLAS
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m_), static_cast<int>(n_),
                    static_cast<int>(k_), 1.0, f64_a_.data(), static_cast<int>(m_), f64_b_.data(),
                    static_cast<int>(k_), 0.0, f64_c_.data(), static_cast<int>(m_));
#endif
        break;
      case gemm_dtype::half:
#if JETPERF_HAS_ONEDNN
        half_->run();
        half_->wait();
#endif
        break;
    }
  }

  void sync() override {}

  double timed_run_s() override {
    const auto t0 = std::chrono::steady_clock::now();
    run_once();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  std::vector<std::string> kernel_names() override {
    switch (dtype_) {
      case gemm_dtype::single: return {"cblas_sgemm"};
      case gemm_dtype::double_: return {"cblas_dgemm"};
      case gemm_dtype::half: return {"dnnl_matmul_f16"};
    }
    return {"unknown"};
  }

  std::string math_mode() const override { return "cpu"; }

  void set_inputs(const std::vector<double>& a, const std::vector<double>& b) override {
    const auto na = static_cast<std::size_t>(m_ * k_), nb = static_cast<std::size_t>(k_ * n_),
               nc = static_cast<std::size_t>(m_ * n_);
    if (a.size() != na || b.size() != nb) throw std::invalid_argument("set_inputs: sizes do not match m, n, k");
    switch (dtype_) {
      case gemm_dtype::single:
        f32_a_.assign(a.begin(), a.end());
        f32_b_.assign(b.begin(), b.end());
        f32_c_.assign(nc, 0.0f);
        break;
      case gemm_dtype::double_:
        f64_a_ = a;
        f64_b_ = b;
        f64_c_.assign(nc, 0.0);
        break;
      case gemm_dtype::half:
#if JETPERF_HAS_ONEDNN
        for (std::size_t i = 0; i < na; ++i) half_->a()[i] = detail::float_to_half_bits(static_cast<float>(a[i]));
        for (std::size_t i = 0; i < nb; ++i) half_->b()[i] = detail::float_to_half_bits(static_cast<float>(b[i]));
        for (std::size_t i = 0; i < nc; ++i) half_->c()[i] = 0;
#endif
        break;
    }
  }

  std::vector<double> result() override {
    switch (dtype_) {
      case gemm_dtype::single: return {f32_c_.begin(), f32_c_.end()};
      case gemm_dtype::double_: return f64_c_;
      case gemm_dtype::half: {
        std::vector<double> out(static_cast<std::size_t>(m_ * n_));
#if JETPERF_HAS_ONEDNN
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = detail::half_bits_to_float(half_->c()[i]);
#endif
        return out;
      }
    }
    return {};
  }

  void set_threads(int threads) override {
#if JETPERF_HAS_OPENBLAS
    // Only when it changes: OpenBLAS shuts its thread pool down before every fork (the daemon
    // forks nvpmodel between points) and openblas_set_num_threads starts a whole pool again,
    // even for one thread, whose idle threads then spin beside the measurement.
    if (threads > 0 && threads != threads_) openblas_set_num_threads(threads);
    if (threads > 0) threads_ = threads;
#endif
  }

 private:
  template <class T>
  static void fill(std::vector<T>& v, std::size_t n, int which) {
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(detail::fill_value(i, which));
  }

  std::int64_t m_ = 0, n_ = 0, k_ = 0;
  int threads_ = 0;  ///< the thread count last given to OpenBLAS (0: its default)
  gemm_dtype dtype_ = gemm_dtype::single;
  std::vector<float> f32_a_, f32_b_, f32_c_;
  std::vector<double> f64_a_, f64_b_, f64_c_;
#if JETPERF_HAS_ONEDNN
  std::unique_ptr<onednn_half_gemm> half_;
#endif
};

}  // namespace

std::unique_ptr<gemm_backend> make_cpu_gemm_backend(std::string* why) {
  if (!JETPERF_HAS_OPENBLAS && !JETPERF_HAS_ONEDNN) {
    if (why) *why = "CPU GEMM is not supported by this build (neither OpenBLAS nor oneDNN)";
    return nullptr;
  }
  return std::make_unique<cpu_gemm_backend>();
}

}  // namespace jetperf::workloads
