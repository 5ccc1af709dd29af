#pragma once
// Names of the GPU kernels launched between start() and stop(), through the CUPTI activity API
// when this build found CUPTI (JETPERF_HAS_CUPTI); otherwise {"unknown"}.
#include <string>
#include <vector>

namespace jetperf::workloads::cuda {

class kernel_name_recorder {
 public:
  /// True when kernel names can be recorded in this build.
  static bool available();
  /// Begins recording (clears earlier names).
  void start();
  /// Flushes CUPTI's buffers, ends recording and returns the distinct names in launch order.
  std::vector<std::string> stop();
};

}  // namespace jetperf::workloads::cuda
