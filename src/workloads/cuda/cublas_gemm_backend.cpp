// cuBLAS GEMM through cublasGemmEx with tensor cores really on or off (DESIGN.md section 5):
// CUDA >= 11: off = CUBLAS_PEDANTIC_MATH with *_PEDANTIC compute types, on = default math with
// the fast compute types (TF32 for float); CUDA 10: on = CUBLAS_TENSOR_OP_MATH. Only host API
// calls are needed, so this is a .cpp compiled by the C++ compiler (nvbench keeps .cu for kernels).
#include <jetperf/cuda/cuda_gemm.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <jetperf/config.hpp>
#if JETPERF_HAS_CUDNN
#include <cudnn.h>
#endif

#include <jetperf/backend/detail/half_bits.hpp>

#include "cuda_check.hpp"
#include "cupti_kernel_tracer.hpp"
#include "cuda_handles.hpp"
#include "event_timer.hpp"
#include <jetperf/cuda/cuda_device_memory.hpp>

namespace jetperf::workloads::cuda {

device_info query_device() {
  device_info info;
  cudaRuntimeGetVersion(&info.cuda_runtime_version);
  cudaDriverGetVersion(&info.cuda_driver_version);
#ifdef CUBLAS_VERSION
  info.cublas_version = CUBLAS_VERSION;
#endif
#if JETPERF_HAS_CUDNN
  info.cudnn_version = static_cast<int>(cudnnGetVersion());
#endif
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    info.error = cudaGetErrorString(err);
    cudaGetLastError();  // clear the sticky error so later calls are not confused by it
    return info;
  }
  info.count = count;
  if (count == 0) {
    info.error = "no CUDA device";
    return info;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    info.name = prop.name;
    info.sm_major = prop.major;
    info.sm_minor = prop.minor;
    info.memory_bytes = prop.totalGlobalMem;
  }
  return info;
}

namespace {

// The kernels one traced GEMM names, at most (cuBLAS launches one to a few).
constexpr std::size_t k_named_kernels_max = 64;

class cublas_gemm_backend final : public gemm_backend {
 public:
  // A step that throws leaves the handles made before it to their owners' destructors.
  cublas_gemm_backend() {
    info_ = query_device();
    JETPERF_CUDA_CALL(cudaSetDevice(0));
    JETPERF_CUBLAS_CALL(cublasCreate(handle_.put()));
    JETPERF_CUDA_CALL(cudaStreamCreate(stream_.put()));
    JETPERF_CUBLAS_CALL(cublasSetStream(handle_.get(), stream_.get()));
    timer_.create();
  }

  std::string name() const override { return "cublas"; }

  std::optional<std::string> supports(gemm_dtype dtype, bool tensor) const override {
    const int sm = info_.sm_major * 10 + info_.sm_minor;
    if (tensor && sm < 70)
      return "GPU sm_" + std::to_string(sm) + " has no tensor cores";
    if (tensor && dtype == gemm_dtype::double_ && sm < 80)
      return "GPU sm_" + std::to_string(sm) + " has no FP64 tensor cores (sm_80+)";
    return std::nullopt;
  }

  void prepare(std::int64_t m, std::int64_t n, std::int64_t k, gemm_dtype dtype, bool tensor) override {
    if (auto why = supports(dtype, tensor)) throw std::runtime_error(*why);
    m_ = m, n_ = n, k_ = k, dtype_ = dtype, tensor_ = tensor;
    configure_math();
    const std::size_t es = dtype_size(dtype);
    a_.allocate(static_cast<std::size_t>(m * k) * es);
    b_.allocate(static_cast<std::size_t>(k * n) * es);
    c_.allocate(static_cast<std::size_t>(m * n) * es);
    std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = detail::fill_value(i, 1);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = detail::fill_value(i, 2);
    set_inputs(a, b);
    // One recorded run tells which kernels cuBLAS picks for this configuration; the measured
    // runs then go untraced, so CUPTI costs nothing inside the window.
    auto* tracer = cupti_kernel_tracer();
    if (tracer) tracer->start();
    run_once();
    sync();
    if (tracer) kernels_ = distinct_kernel_names(tracer->stop(k_named_kernels_max));
  }

  void run_once() override {
    const void* alpha = dtype_ == gemm_dtype::double_ ? static_cast<const void*>(&alpha64_)
                        : half_scalars_                ? static_cast<const void*>(&alpha16_)
                                                       : static_cast<const void*>(&alpha32_);
    const void* beta = dtype_ == gemm_dtype::double_ ? static_cast<const void*>(&beta64_)
                       : half_scalars_                ? static_cast<const void*>(&beta16_)
                                                      : static_cast<const void*>(&beta32_);
    JETPERF_CUBLAS_CALL(cublasGemmEx(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m_),
                                     static_cast<int>(n_), static_cast<int>(k_), alpha, a_.get(), data_type_,
                                     static_cast<int>(m_),
                                     b_.get(), data_type_, static_cast<int>(k_), beta, c_.get(), data_type_,
                                     static_cast<int>(m_), compute_type_, algo_));
  }

  void sync() override { JETPERF_CUDA_CALL(cudaStreamSynchronize(stream_.get())); }

  double timed_run_s() override {
    return timer_.time_s(stream_.get(), [this] { run_once(); });
  }

  std::vector<std::string> kernel_names() override { return kernels_; }
  kernel_tracer* tracer() override { return cupti_kernel_tracer(); }
  std::string math_mode() const override { return math_mode_; }

  void set_inputs(const std::vector<double>& a, const std::vector<double>& b) override {
    if (a.size() != static_cast<std::size_t>(m_ * k_) || b.size() != static_cast<std::size_t>(k_ * n_))
      throw std::invalid_argument("set_inputs: sizes do not match m, n, k");
    upload(a, a_);
    upload(b, b_);
    JETPERF_CUDA_CALL(cudaMemset(c_.get(), 0, c_.bytes()));
  }

  std::vector<double> result() override {
    sync();
    const std::size_t n = static_cast<std::size_t>(m_ * n_);
    std::vector<double> out(n);
    switch (dtype_) {
      case gemm_dtype::half: {
        std::vector<std::uint16_t> h(n);
        JETPERF_CUDA_CALL(cudaMemcpy(h.data(), c_.get(), n * 2, cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < n; ++i) out[i] = detail::half_bits_to_float(h[i]);
        break;
      }
      case gemm_dtype::single: {
        std::vector<float> f(n);
        JETPERF_CUDA_CALL(cudaMemcpy(f.data(), c_.get(), n * 4, cudaMemcpyDeviceToHost));
        out.assign(f.begin(), f.end());
        break;
      }
      case gemm_dtype::double_:
        JETPERF_CUDA_CALL(cudaMemcpy(out.data(), c_.get(), n * 8, cudaMemcpyDeviceToHost));
        break;
    }
    return out;
  }

 private:
  void configure_math() {
    half_scalars_ = false;
    algo_ = CUBLAS_GEMM_DEFAULT;
    switch (dtype_) {
      case gemm_dtype::half: data_type_ = CUDA_R_16F; break;
      case gemm_dtype::single: data_type_ = CUDA_R_32F; break;
      case gemm_dtype::double_: data_type_ = CUDA_R_64F; break;
    }
#if CUDART_VERSION >= 11000
    JETPERF_CUBLAS_CALL(cublasSetMathMode(handle_.get(), tensor_ ? CUBLAS_DEFAULT_MATH : CUBLAS_PEDANTIC_MATH));
    math_mode_ = tensor_ ? "default" : "pedantic";
    switch (dtype_) {
      case gemm_dtype::half:
        compute_type_ = tensor_ ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_16F_PEDANTIC;
        half_scalars_ = true;
        break;
      case gemm_dtype::single:
        compute_type_ = tensor_ ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F_PEDANTIC;
        break;
      case gemm_dtype::double_:
        compute_type_ = tensor_ ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_64F_PEDANTIC;
        break;
    }
#else
    // CUDA 10: tensor cores are opt-in through the math mode and the *_TENSOR_OP algorithm.
    JETPERF_CUBLAS_CALL(cublasSetMathMode(handle_.get(), tensor_ ? CUBLAS_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
    math_mode_ = tensor_ ? "tensor_op" : "default";
    if (tensor_) algo_ = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
    compute_type_ = data_type_;
    half_scalars_ = dtype_ == gemm_dtype::half;
#endif
  }

  void upload(const std::vector<double>& v, device_memory& dst) {
    switch (dtype_) {
      case gemm_dtype::half: {
        std::vector<std::uint16_t> h(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) h[i] = detail::float_to_half_bits(static_cast<float>(v[i]));
        JETPERF_CUDA_CALL(cudaMemcpy(dst.get(), h.data(), h.size() * 2, cudaMemcpyHostToDevice));
        break;
      }
      case gemm_dtype::single: {
        std::vector<float> f(v.begin(), v.end());
        JETPERF_CUDA_CALL(cudaMemcpy(dst.get(), f.data(), f.size() * 4, cudaMemcpyHostToDevice));
        break;
      }
      case gemm_dtype::double_:
        JETPERF_CUDA_CALL(cudaMemcpy(dst.get(), v.data(), v.size() * 8, cudaMemcpyHostToDevice));
        break;
    }
  }

  device_info info_;
  // Destroyed in reverse: the events, the cuBLAS handle, then the stream it is bound to.
  cuda_stream stream_;
  cublas_handle handle_;
  event_timer timer_;
  device_memory a_, b_, c_;
  std::int64_t m_ = 0, n_ = 0, k_ = 0;
  gemm_dtype dtype_ = gemm_dtype::single;
  bool tensor_ = false;
  cudaDataType data_type_ = CUDA_R_32F;
#if CUDART_VERSION >= 11000
  cublasComputeType_t compute_type_ = CUBLAS_COMPUTE_32F;
#else
  cudaDataType compute_type_ = CUDA_R_32F;
#endif
  cublasGemmAlgo_t algo_ = CUBLAS_GEMM_DEFAULT;
  bool half_scalars_ = false;
  std::string math_mode_;
  std::vector<std::string> kernels_{"unknown"};
  const std::uint16_t alpha16_ = 0x3c00, beta16_ = 0;  // 1.0 and 0.0 as IEEE half bits
  const float alpha32_ = 1.0f, beta32_ = 0.0f;
  const double alpha64_ = 1.0, beta64_ = 0.0;
};

}  // namespace

std::unique_ptr<gemm_backend> make_cublas_backend() { return std::make_unique<cublas_gemm_backend>(); }

}  // namespace jetperf::workloads::cuda
