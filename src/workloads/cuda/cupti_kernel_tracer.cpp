#include "cupti_kernel_tracer.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include <jetperf/common/clock.hpp>

#include "cuda_check.hpp"

#if defined(JETPERF_HAS_CUPTI) && JETPERF_HAS_CUPTI
#include <cupti.h>
#endif

namespace jetperf::workloads::cuda {

#if defined(JETPERF_HAS_CUPTI) && JETPERF_HAS_CUPTI
namespace {

// The kernel record grows with CUPTI versions; each version's newest struct is used.
#if CUDART_VERSION >= 13000
using kernel_record = CUpti_ActivityKernel10;
#elif CUDART_VERSION >= 12000
using kernel_record = CUpti_ActivityKernel9;
#elif CUDART_VERSION >= 11000
using kernel_record = CUpti_ActivityKernel5;
#else
using kernel_record = CUpti_ActivityKernel4;
#endif
// What is read of a record (kernel_from_record) sits at the same offsets in every version since
// Kernel4 (checked up to CUDA 13.0's Kernel10), so a CUPTI newer than the headers is read right.
static_assert(offsetof(kernel_record, name) == offsetof(CUpti_ActivityKernel4, name), "kernel record layout");
static_assert(offsetof(kernel_record, correlationId) == offsetof(CUpti_ActivityKernel4, correlationId),
              "kernel record layout");
static_assert(offsetof(kernel_record, blockZ) == offsetof(CUpti_ActivityKernel4, blockZ), "kernel record layout");

constexpr std::size_t k_buffer_bytes = 1 << 20;
// What one trace keeps while it runs, whatever the workload launches: beyond, kernels are
// counted as dropped and launches are not matched (their kernels keep launch_ns -1).
constexpr std::size_t k_max_kept_kernels = 1 << 18;
constexpr std::size_t k_max_kept_launches = 1 << 18;
constexpr CUpti_ActivityKind k_kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME,
                                          CUPTI_ACTIVITY_KIND_DRIVER};

struct recording {
  std::mutex mutex;
  std::vector<gpu_kernel> kernels;                     // on CUPTI's clock until stop()
  std::unordered_map<std::uint32_t, std::int64_t> launches;  // correlation id -> API call start
  std::size_t dropped = 0;
  bool registered = false;
};

recording& rec() {
  static recording r;
  return r;
}

void CUPTIAPI on_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, k_buffer_bytes));
  *size = *buffer ? k_buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI on_buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t, size_t valid) {
  auto& r = rec();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
        if (r.kernels.size() < k_max_kept_kernels)
          r.kernels.push_back(kernel_from_record(*reinterpret_cast<const kernel_record*>(record), 0));
        else
          ++r.dropped;
      } else if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME || record->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
        const auto* api = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        if (r.launches.size() < k_max_kept_launches)
          r.launches.emplace(api->correlationId, static_cast<std::int64_t>(api->start));
      }
    }
    size_t lost = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &lost) == CUPTI_SUCCESS) r.dropped += lost;
  }
  std::free(buffer);
}

void cupti_call(CUptiResult r, const char* call) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  throw_cuda_error(__FILE__, __LINE__, call, text ? text : "CUPTI error");
}

// CUPTI's timestamps (CLOCK_REALTIME on Linux, GPU times converted to it) onto CLOCK_MONOTONIC.
clock_offset cupti_clock_offset() {
  std::vector<clock_bracket> brackets;
  for (int i = 0; i < 8; ++i) {
    clock_bracket b;
    b.before_ns = monotonic_ns();
    uint64_t t = 0;
    cupti_call(cuptiGetTimestamp(&t), "cuptiGetTimestamp");
    b.other_ns = static_cast<std::int64_t>(t);
    b.after_ns = monotonic_ns();
    brackets.push_back(b);
  }
  return offset_from_brackets(brackets);
}

class cupti_tracer final : public kernel_tracer {
 public:
  void start() override {
    auto& r = rec();
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      r.kernels.clear();
      r.launches.clear();
      r.dropped = 0;
      if (!r.registered) {
        cupti_call(cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed),
                   "cuptiActivityRegisterCallbacks");
        r.registered = true;
      }
    }
    for (auto kind : k_kinds) cupti_call(cuptiActivityEnable(kind), "cuptiActivityEnable");
  }

  kernel_trace stop(std::size_t max_kernels) override {
    cupti_call(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    for (auto kind : k_kinds) cupti_call(cuptiActivityDisable(kind), "cuptiActivityDisable");
    const auto clock = cupti_clock_offset();
    auto& r = rec();
    kernel_trace out;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      out.kernels.swap(r.kernels);
      out.dropped = r.dropped;
      for (auto& k : out.kernels) {
        k.start_ns += clock.offset_ns;
        k.end_ns += clock.offset_ns;
        if (auto it = r.launches.find(k.correlation); it != r.launches.end()) k.launch_ns = it->second + clock.offset_ns;
      }
      r.launches.clear();
    }
    std::stable_sort(out.kernels.begin(), out.kernels.end(),
                     [](const gpu_kernel& a, const gpu_kernel& b) { return a.start_ns < b.start_ns; });
    if (out.kernels.size() > max_kernels) {
      out.dropped += out.kernels.size() - max_kernels;
      out.kernels.resize(max_kernels);
    }
    out.clock_uncertainty_ns = clock.uncertainty_ns;
    return out;
  }
};

}  // namespace

kernel_tracer* cupti_kernel_tracer() {
  static cupti_tracer tracer;
  return &tracer;
}

#else

kernel_tracer* cupti_kernel_tracer() { return nullptr; }

#endif

}  // namespace jetperf::workloads::cuda
