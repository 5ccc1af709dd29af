#pragma once
// One DNN library behind one interface (oneDNN on the CPU, cuDNN + cuBLAS + kernels/ on the GPU,
// and the plain C++ reference the tests compare both against), so the layers workload and the
// measurement loop see them alike. A backend runs one layer (a contiguous op range of a network)
// in isolation on its real input shapes, with deterministic weights and inputs (layer_data.hpp).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/backend/gemm_dtype.hpp>
#include <jetperf/backend/kernel_trace.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::workloads {

/// What prepare() throws when the layer cannot run here (an op type, a dtype, a layout this
/// library lacks): the point is skipped with what() as its reason, not failed.
class layer_unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One op's part of a timed run of a layer or network.
struct op_span {
  int op = -1;                  ///< index into the network's ops
  std::int64_t start_ns = 0;    ///< CLOCK_MONOTONIC
  std::int64_t end_ns = 0;
};

/// When the host launched one op's work (CLOCK_MONOTONIC), on a backend whose ops run
/// asynchronously: the kernels whose launch calls fall in [from_ns, to_ns] are the op's.
struct op_launch {
  int op = -1;                  ///< index into the network's ops
  std::int64_t from_ns = 0;
  std::int64_t to_ns = 0;
};

class layer_backend {
 public:
  virtual ~layer_backend() = default;
  /// "onednn", "cudnn", "reference".
  virtual std::string name() const = 0;
  /// nullopt when every op of `l` can run here in `dtype`, else why not (the point's skip reason).
  virtual std::optional<std::string> supports(const models::network& net, const models::layer& l,
                                              gemm_dtype dtype) const = 0;
  /// Creates primitives/descriptors, allocates the inputs, intermediates, output and weights of `l`
  /// at `batch`, and fills weights and inputs from layer_data.hpp (so every backend computes the
  /// same function on the same data). Throws layer_unsupported with supports()'s reason when the
  /// layer cannot run here, std::runtime_error on other failures (out of memory, ...).
  virtual void prepare(const models::network& net, const models::layer& l, std::int64_t batch, gemm_dtype dtype) = 0;
  /// Launches the layer once (asynchronous on a GPU).
  virtual void run_once() = 0;
  /// Waits for every launched run.
  virtual void sync() = 0;
  /// One run timed by the backend's own clock, in seconds: steady_clock around run_once + sync
  /// here; GPU backends override it with CUDA events.
  virtual double timed_run_s() {
    const auto t0 = std::chrono::steady_clock::now();
    run_once();
    sync();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  /// One run like timed_run_s with each op's start and end, where the backend can time its ops
  /// one by one (the CPU backends run them synchronously, in order); empty where it cannot (a
  /// GPU backend: CUPTI gives its kernels instead).
  virtual std::vector<op_span> timed_run_ops() { return {}; }
  /// Launches the layer once, as run_once, and says when each op's launches began and ended
  /// (without waiting for the GPU), where the backend can: with its tracer's kernels, each op's
  /// GPU time (measure/kernel_ops.hpp). Empty where it cannot (the CPU backends: timed_run_ops).
  virtual std::vector<op_launch> run_once_noting_ops() { return {}; }
  /// The implementation each op of the prepared layer runs with, by op index: oneDNN's
  /// impl_info_str (e.g. "brg:avx512_core", with "+reorder" when a layout conversion runs before
  /// it), "reference"; empty when unknown.
  virtual std::map<int, std::string> op_kernels() const { return {}; }
  /// Records the GPU kernels of the runs between its start() and stop() (CUPTI); nullptr on
  /// the CPU or in a build without CUPTI.
  virtual kernel_tracer* tracer() { return nullptr; }
  /// Replaces external input `i` (NCHW / NC, batch included), converted to the prepared dtype.
  virtual void set_input(std::size_t i, const std::vector<float>& values) = 0;
  /// The layer's output (NCHW / NC, batch included) as float (waits for pending work).
  virtual std::vector<float> output() = 0;
  /// Host memory for `count` floats crossing between two backends (a multi-DNN split): page-locked
  /// on a GPU backend (cudaMallocHost), so copies to and from it are DMA transfers; plain memory
  /// here.
  virtual std::shared_ptr<float> host_buffer(std::size_t count) {
    return std::shared_ptr<float>(new float[count](), std::default_delete<float[]>());
  }
  /// Copies the output (NCHW / NC, `count` floats) into `dst`: a device-to-host copy on a GPU.
  virtual void read_output(float* dst, std::size_t count) {
    const auto v = output();
    std::copy_n(v.begin(), std::min(count, v.size()), dst);
  }
  /// Copies `count` floats from `src` into external input `i`: a host-to-device copy on a GPU.
  virtual void write_input(std::size_t i, const float* src, std::size_t count) {
    set_input(i, std::vector<float>(src, src + count));
  }
  /// CPU thread count (0 = library default); ignored by GPU backends.
  virtual void set_threads(int threads) {}
};

}  // namespace jetperf::workloads
