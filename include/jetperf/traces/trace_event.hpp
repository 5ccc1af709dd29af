#pragma once
// One complete ("ph":"X") event of a Chrome trace, typed: the reader keeps only what the analysis
// reads, with times as integer nanoseconds so sums and differences stay exact.
#include <cstdint>

namespace jetperf::traces {

/// What an event is, from its "cat" (the Kineto names, with the older profiler's spellings).
enum class event_category : std::uint8_t {
  cpu_op,               ///< "cpu_op", "Operator"; also an event with no "cat" (torch's legacy profiler)
  user_annotation,      ///< "user_annotation": record_function labels, ProfilerStep#N
  runtime,              ///< "cuda_runtime", "Runtime": cudaLaunchKernel, cudaMemcpyAsync, ...
  driver,               ///< "cuda_driver": cuLaunchKernel, ...
  kernel,               ///< "kernel", "Kernel"
  memcpy,               ///< "gpu_memcpy", "Memcpy"
  memset,               ///< "gpu_memset", "Memset"
  gpu_user_annotation,  ///< "gpu_user_annotation": a label drawn over the device timeline
  python_function,      ///< "python_function" (with_stack): not in torch's op tree either
  other,                ///< anything else ("Trace", "overhead", ...): kept out of the analysis
};

/// Host events form the op tree on their thread.
constexpr bool is_host(event_category c) {
  return c == event_category::cpu_op || c == event_category::user_annotation || c == event_category::runtime ||
         c == event_category::driver;
}
/// Runtime and driver calls: what launches device work (matched to it by correlation id).
constexpr bool is_runtime(event_category c) { return c == event_category::runtime || c == event_category::driver; }
/// Work on the device timeline: kernels, copies, sets.
constexpr bool is_device(event_category c) {
  return c == event_category::kernel || c == event_category::memcpy || c == event_category::memset;
}

/// One "ph":"X" event, in 48 bytes (a 100 MB Kineto trace holds about 340 000 of them). Names
/// and threads are indices into the trace's tables.
struct trace_event {
  std::int64_t ts_ns = 0;
  std::int64_t dur_ns = 0;
  std::int64_t correlation = -1;  ///< args "correlation": links a runtime call to its device work
  std::uint32_t name = 0;    ///< index into trace::names
  std::uint32_t thread = 0;  ///< index into trace::threads ((pid, tid) pairs)
  /// args "External id": the op a runtime call or kernel belongs to (-1 beyond 32 bits)
  std::int32_t external_id = -1;
  std::int32_t stream = -1;  ///< args "stream" of device work (-1 beyond 32 bits)
  event_category category = event_category::other;

  std::int64_t end_ns() const { return ts_ns + dur_ns; }
};

}  // namespace jetperf::traces
