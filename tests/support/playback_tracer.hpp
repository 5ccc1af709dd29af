#pragma once
// A kernel tracer (jetperf/backend/kernel_trace.hpp) for tests without a GPU: the code under test
// calls launch(t0, t1) for each run it makes, and between start() and stop() each such run
// "launches" two kernels inside [t0, t1]: one whose launch call CUPTI matched (launch_ns set),
// one it did not (launch_ns -1). Runs outside start()..stop() launch nothing traced.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <jetperf/backend/kernel_trace.hpp>

namespace jetperf::test {

class playback_tracer final : public workloads::kernel_tracer {
 public:
  bool refuse = false;  ///< start() throws as CUPTI does beside another profiler
  bool tracing = false;
  std::vector<workloads::gpu_kernel> launched;
  std::size_t stops_max = 0;  ///< the max_kernels of the last stop()
  std::size_t starts = 0;

  void launch(std::int64_t t0, std::int64_t t1) {
    if (!tracing) return;
    auto a = kernel("conv_kernel", t0 + (t1 - t0) / 4, t0 + (t1 - t0) / 3, t0 + (t1 - t0) / 2);
    a.grid = {8, 4, 1};
    a.block = {128, 1, 1};
    a.stream = 7;
    a.correlation = static_cast<std::uint32_t>(launched.size() + 1);
    launched.push_back(a);
    launched.push_back(kernel("relu_kernel", -1, t0 + (t1 - t0) * 3 / 4, t1));
  }
  void start() override {
    if (refuse) throw std::runtime_error("CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    ++starts;
    launched.clear();
    tracing = true;
  }
  workloads::kernel_trace stop(std::size_t max_kernels) override {
    tracing = false;
    stops_max = max_kernels;
    workloads::kernel_trace t;
    t.kernels = launched;
    if (t.kernels.size() > max_kernels) {
      t.dropped = t.kernels.size() - max_kernels;
      t.kernels.resize(max_kernels);
    }
    t.clock_uncertainty_ns = 120;
    return t;
  }

  static workloads::gpu_kernel kernel(const std::string& name, std::int64_t launch, std::int64_t start,
                                      std::int64_t end) {
    workloads::gpu_kernel k;
    k.name = name;
    k.launch_ns = launch;
    k.start_ns = start;
    k.end_ns = end;
    return k;
  }
};

}  // namespace jetperf::test
