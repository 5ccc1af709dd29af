#pragma once
// Device work matched to the runtime call that launched it, by correlation id (args
// "correlation", the CUPTI id that Kineto writes on both the cuda_runtime event and its kernel).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

struct kernel_link {
  std::uint32_t device_event = 0;  ///< the kernel, memcpy or memset
  std::uint32_t launch_event = 0;  ///< the runtime/driver call with the same correlation id
};

struct kernel_links {
  std::vector<kernel_link> links;
  std::size_t device_events = 0;  ///< kernels, copies and sets in the trace
  std::size_t unmatched = 0;      ///< device events with no launch of the same correlation id
};

kernel_links link_kernels(const trace& t);

}  // namespace jetperf::traces
