// The GPU layer backend: cuDNN's legacy API (valid from cuDNN 8.2 to 9.x) for convolutions, batch
// norm, activations, pooling and tensor ops, cuBLAS for Linear, kernels/ for the rest, all on one
// stream. Tensors are NCHW in float or half; flatten and dropout alias their input.
#include <jetperf/cuda/cuda_layers.hpp>

#include <jetperf/config.hpp>

#if JETPERF_HAS_CUDNN

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/backend/detail/layer_wiring.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/backend/layer_data.hpp>
#include <jetperf/cuda/cuda_gemm.hpp>

#include "cuda_handles.hpp"
#include "cudnn_handle.hpp"
#include "cudnn_op_runner.hpp"
#include "cupti_kernel_tracer.hpp"
#include "event_timer.hpp"

namespace jetperf::workloads::cuda {

namespace {

/// cudnnFindConvolutionForwardAlgorithmEx may try algorithms needing up to this much scratch
/// (or a quarter of the free memory, whichever is less: Jetsons share it with the CPU).
constexpr std::size_t k_max_search_workspace = std::size_t{256} << 20;

bool aliases_input(models::op_type t) { return t == models::op_type::flatten || t == models::op_type::dropout; }

class cudnn_layer_backend final : public layer_backend {
 public:
  explicit cudnn_layer_backend(device_info info) : info_(std::move(info)) {}
  ~cudnn_layer_backend() override { release_layer(); }

  /// Creates the handles; throws cuda_error (their owners release what was created).
  void init() {
    JETPERF_CUDA_CALL(cudaSetDevice(0));
    JETPERF_CUDA_CALL(cudaStreamCreate(stream_.put()));
    JETPERF_CUDNN_CALL(cudnnCreate(dnn_.put()));
    JETPERF_CUDNN_CALL(cudnnSetStream(dnn_.get(), stream_.get()));
    JETPERF_CUBLAS_CALL(cublasCreate(blas_.put()));
    JETPERF_CUBLAS_CALL(cublasSetStream(blas_.get(), stream_.get()));
    // Default math keeps float GEMMs in FP32 (PyTorch's torch.backends.cuda.matmul.allow_tf32 is
    // False) and, from cuBLAS 11, uses tensor cores for half; the cuBLAS 10 half path asks for
    // them when it prepares a half layer (cudnn_linear_runner.cpp).
    JETPERF_CUBLAS_CALL(cublasSetMathMode(blas_.get(), CUBLAS_DEFAULT_MATH));
    timer_.create();
  }

  std::string name() const override { return "cudnn"; }

  std::optional<std::string> supports(const models::network& net, const models::layer& l,
                                      gemm_dtype dtype) const override {
    if (dtype == gemm_dtype::double_) return std::string("cuDNN layers run in half or float only");
    const int sm = info_.sm_major * 10 + info_.sm_minor;
    if (dtype == gemm_dtype::half && sm < 53)
      return "GPU sm_" + std::to_string(sm) + " has no half-precision arithmetic (sm_53+)";
    if (l.first < 0 || l.last > static_cast<int>(net.ops.size()) || l.first >= l.last)
      return "op range [" + std::to_string(l.first) + ", " + std::to_string(l.last) + ") is not in " + net.name;
    try {
      detail::wire_layer(net, l);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    for (int i = l.first; i < l.last; ++i) {
      const models::op& o = net.ops[static_cast<std::size_t>(i)];
      if (o.type == models::op_type::batch_norm && o.eps < CUDNN_BN_MIN_EPSILON)
        return o.name + ": eps " + std::to_string(o.eps) + " below cuDNN's minimum";
    }
    return std::nullopt;
  }

  void prepare(const models::network& net, const models::layer& l, std::int64_t batch, gemm_dtype dtype) override {
    if (auto why = supports(net, l, dtype)) throw layer_unsupported(*why);
    if (batch <= 0) throw std::invalid_argument("batch must be positive");
    release_layer();
    const auto wiring = detail::wire_layer(net, l);
    ctx_ = layer_context{};
    ctx_.dnn = dnn_.get(), ctx_.blas = blas_.get(), ctx_.stream = stream_.get();
    ctx_.half = dtype == gemm_dtype::half;
    ctx_.batch = to_int(batch, "batch");

    // External inputs, filled like every other backend's.
    for (std::size_t i = 0; i < l.inputs.size(); ++i) {
      const auto values = make_layer_input(l.input_shapes[i], batch, l.first, i);
      inputs_.emplace_back(values.size() * ctx_.element_bytes());
      upload_floats(values, ctx_.half, inputs_.back().get(), stream_.get());
    }
    // Every op's output; flatten and dropout reuse their input's memory.
    std::vector<void*> outputs(static_cast<std::size_t>(l.last - l.first), nullptr);
    auto source = [&](const detail::op_source& s) -> void* {
      return s.external ? inputs_.at(static_cast<std::size_t>(s.index)).get()
                        : outputs.at(static_cast<std::size_t>(s.index - l.first));
    };
    std::vector<std::vector<const void*>> op_inputs(outputs.size());
    for (int i = l.first; i < l.last; ++i) {
      const auto k = static_cast<std::size_t>(i - l.first);
      const models::op& o = net.ops[static_cast<std::size_t>(i)];
      for (const auto& s : wiring[k]) op_inputs[k].push_back(source(s));
      if (aliases_input(o.type)) {
        outputs[k] = source(wiring[k].at(0));
      } else {
        intermediates_.emplace_back(static_cast<std::size_t>(batch * models::elements(o.output_shape)) *
                                    ctx_.element_bytes());
        outputs[k] = intermediates_.back().get();
      }
    }
    output_ = outputs.back();
    output_count_ = static_cast<std::size_t>(batch * models::elements(l.output_shape));

    // Runners (the convolutions time their algorithms here, on the real buffers).
    std::size_t free_bytes = 0, total_bytes = 0;
    JETPERF_CUDA_CALL(cudaMemGetInfo(&free_bytes, &total_bytes));
    device_memory search(std::min(k_max_search_workspace, free_bytes / 4));
    ctx_.search_workspace = search.get();
    ctx_.search_workspace_bytes = search.bytes();
    std::size_t workspace = 0;
    for (int i = l.first; i < l.last; ++i) {
      const auto k = static_cast<std::size_t>(i - l.first);
      const models::op& o = net.ops[static_cast<std::size_t>(i)];
      if (aliases_input(o.type)) continue;
      runners_.push_back(make_op_runner(o, i, op_inputs[k], outputs[k], ctx_));
      runner_ops_.push_back(i);
      workspace = std::max(workspace, runners_.back()->workspace_bytes());
    }
    search.reset();
    ctx_.search_workspace = nullptr;
    ctx_.search_workspace_bytes = 0;
    workspace_.allocate(workspace);
    ctx_.workspace = workspace_.get();
    ctx_.workspace_bytes = workspace_.bytes();
    prepared_ = true;
    // One run outside any measurement: lazy module loading and first-launch costs land here,
    // and an asynchronous failure surfaces now rather than in the first timed run.
    run_once();
    sync();
  }

  void run_once() override {
    if (!prepared_) throw std::logic_error("cudnn backend: run before prepare");
    for (auto& r : runners_) r->run(ctx_);
  }

  // Each op's launch calls between two host clock reads: CUPTI correlates every kernel with its
  // launch call's host time, so the kernels fall to their ops (measure/kernel_ops.hpp).
  std::vector<op_launch> run_once_noting_ops() override {
    if (!prepared_) throw std::logic_error("cudnn backend: run before prepare");
    std::vector<op_launch> out;
    out.reserve(runners_.size());
    for (std::size_t r = 0; r < runners_.size(); ++r) {
      op_launch l{runner_ops_[r], monotonic_ns(), 0};
      runners_[r]->run(ctx_);
      l.to_ns = monotonic_ns();
      out.push_back(l);
    }
    return out;
  }

  void sync() override { JETPERF_CUDA_CALL(cudaStreamSynchronize(stream_.get())); }
  kernel_tracer* tracer() override { return cupti_kernel_tracer(); }

  double timed_run_s() override {
    return timer_.time_s(stream_.get(), [this] { run_once(); });
  }

  void set_input(std::size_t i, const std::vector<float>& values) override {
    if (!prepared_) throw std::logic_error("cudnn backend: set_input before prepare");
    detail::check_set_input(i, inputs_.size(), i < inputs_.size() ? inputs_[i].bytes() / ctx_.element_bytes() : 0,
                            values.size());
    sync();  // a pending run may still read the old values
    upload_floats(values, ctx_.half, inputs_[i].get(), stream_.get());
  }

  std::vector<float> output() override {
    if (!prepared_) throw std::logic_error("cudnn backend: output before prepare");
    sync();
    return download_floats(output_, output_count_, ctx_.half, stream_.get());
  }

  // A split's data moves through page-locked memory with cudaMemcpyAsync on the layer's stream
  // (DMA, no staging copy); half layers convert on the host, through the pageable default.
  std::shared_ptr<float> host_buffer(std::size_t count) override {
    void* p = nullptr;
    JETPERF_CUDA_CALL(cudaMallocHost(&p, std::max<std::size_t>(1, count) * sizeof(float)));
    return std::shared_ptr<float>(static_cast<float*>(p), [](float* q) { cudaFreeHost(q); });
  }

  void read_output(float* dst, std::size_t count) override {
    if (!prepared_) throw std::logic_error("cudnn backend: output before prepare");
    if (ctx_.half) return layer_backend::read_output(dst, count);
    JETPERF_CUDA_CALL(cudaMemcpyAsync(dst, output_, std::min(count, output_count_) * sizeof(float),
                                      cudaMemcpyDeviceToHost, stream_.get()));
    sync();
  }

  void write_input(std::size_t i, const float* src, std::size_t count) override {
    if (!prepared_) throw std::logic_error("cudnn backend: set_input before prepare");
    if (ctx_.half) return layer_backend::write_input(i, src, count);
    detail::check_set_input(i, inputs_.size(), i < inputs_.size() ? inputs_[i].bytes() / ctx_.element_bytes() : 0,
                            count);
    JETPERF_CUDA_CALL(cudaMemcpyAsync(inputs_[i].get(), src, count * sizeof(float), cudaMemcpyHostToDevice,
                                      stream_.get()));
    sync();
  }

 private:
  void release_layer() {
    if (stream_) cudaStreamSynchronize(stream_.get());
    prepared_ = false;
    runners_.clear();
    runner_ops_.clear();
    intermediates_.clear();
    inputs_.clear();
    workspace_.reset();
    output_ = nullptr;
    output_count_ = 0;
  }

  device_info info_;
  // Destroyed in reverse: the events, then the cuBLAS and cuDNN handles, then their stream.
  cuda_stream stream_;
  cudnn_handle dnn_;
  cublas_handle blas_;
  event_timer timer_;

  layer_context ctx_;
  bool prepared_ = false;
  std::vector<device_memory> inputs_;
  std::vector<device_memory> intermediates_;
  device_memory workspace_;
  std::vector<std::unique_ptr<op_runner>> runners_;  // after the memory they point into: destroyed first
  std::vector<int> runner_ops_;                      ///< each runner's op index in the network
  const void* output_ = nullptr;
  std::size_t output_count_ = 0;
};

}  // namespace

std::unique_ptr<layer_backend> make_cudnn_layer_backend(std::string* why) {
  const device_info info = query_device();
  if (info.count == 0) {
    if (why) *why = "skipped: no CUDA device (" + info.error + ")";
    return nullptr;
  }
  try {
    auto backend = std::make_unique<cudnn_layer_backend>(info);
    backend->init();
    return backend;
  } catch (const std::exception& e) {
    if (why) *why = std::string("skipped: cuDNN could not start (") + e.what() + ")";
    return nullptr;
  }
}

}  // namespace jetperf::workloads::cuda

#else  // !JETPERF_HAS_CUDNN

namespace jetperf::workloads::cuda {

std::unique_ptr<layer_backend> make_cudnn_layer_backend(std::string* why) {
  if (why) *why = "not supported by this build (no cuDNN)";
  return nullptr;
}

}  // namespace jetperf::workloads::cuda

#endif  // JETPERF_HAS_CUDNN
