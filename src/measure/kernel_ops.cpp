#include <jetperf/measure/kernel_ops.hpp>

#include <algorithm>

namespace jetperf::measure {

std::vector<stats::op_kernels> kernels_by_op(const std::vector<op_launch>& launches,
                                      const std::vector<workloads::gpu_kernel>& kernels, std::size_t* unattributed) {
  std::vector<stats::op_kernels> out;
  for (const auto& l : launches) out.push_back({l.op, {}});
  std::size_t lost = 0;
  for (const auto& k : kernels) {
    // Launch windows do not overlap (one host thread launches an op after another).
    const auto at = std::find_if(launches.begin(), launches.end(), [&](const op_launch& l) {
      return k.launch_ns >= 0 && k.launch_ns >= l.from_ns && k.launch_ns <= l.to_ns;
    });
    if (at == launches.end()) {
      ++lost;
      continue;
    }
    out[static_cast<std::size_t>(at - launches.begin())].kernels.emplace_back(k.start_ns, k.end_ns);
  }
  for (auto& o : out) std::sort(o.kernels.begin(), o.kernels.end());
  if (unattributed) *unattributed = lost;
  return out;
}

}  // namespace jetperf::measure
