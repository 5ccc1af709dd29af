#pragma once
// The constants and name lists of seed 004's host-overhead analysis (shared/seeds/004: the DLRM
// trace notebook, with analysis/utils.py and analysis/trace_utils.py of the code it imports,
// owensgroup/ml_perf_model). Every value is the seed's default; a caller may change any.
#include <string>
#include <vector>

namespace jetperf::traces {

struct overhead_model {
  /// CPU_EVENT_OVERHEAD (us): what the profiler itself adds per recorded host event; subtracted
  /// once per event counted before a launch, after the last one, or inside an op. analysis/utils.py
  /// sets 2 (an earlier revision of it had 3.8).
  double cpu_event_overhead_us = 2.0;
  /// GPU_EVENT_OVERHEAD (us): the profiler's cost per recorded device event (analysis/utils.py: 4).
  double gpu_event_overhead_us = 4.0;
  /// KERNEL_LAUNCH_LENGTH (us): the length of one launch call without profiling overheads
  /// (analysis/utils.py: 10). T4 of every launch is KERNEL_LAUNCH_LENGTH - CPU_EVENT_OVERHEAD -
  /// GPU_EVENT_OVERHEAD.
  double kernel_launch_length_us = 10.0;
  /// A gap between two ops at or above this (us) is data loading, not T1 (the notebook's `gap < 200`).
  double t1_max_gap_us = 200.0;
  /// Runtime calls that count as launches for T2..T5 (the notebook's list).
  std::vector<std::string> launch_names{"cudaLaunchKernel", "cudaMemcpyAsync"};
  /// Runtime calls the seed ignores when counting events (trace_utils.py SKIP_RUNTIME_EVENTS).
  std::vector<std::string> skipped_runtime_names{"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                                                 "cudaPeakAtLastError", "cudaStreamGetCaptureInfo",
                                                 "cudaEventQuery", "cudaEventRecord"};
  /// Name prefixes of labels, not ops: the analysis descends through them (trace_utils.py
  /// LABEL_MARKERS), plus "ProfilerStep#", which torch's legacy profiler writes as a plain op.
  std::vector<std::string> module_markers{"##", "__", "module::", "DLRM ", "DistributedDataParallel",
                                          "ProfilerStep#"};
  /// Ops that give no T5 (nor T1 with their predecessor) when they launch nothing (the notebook:
  /// "Some aten::to doesn't have children").
  std::vector<std::string> no_launch_skipped_ops{"aten::to"};
};

}  // namespace jetperf::traces
