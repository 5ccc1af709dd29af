#pragma once
// Per-op and per-kernel totals. The op totals are what torch.profiler's key_averages() reports
// for the same events: one row per key with count, total and self CPU time, where the key is the
// name (ProfilerStep#N all under "ProfilerStep*"), self time is the duration minus the children's,
// and an event whose only child has its own name counts once (torch's _remove_dup_nodes).
// Device time is the kernels launched inside the op, including its children's.
#include <cstddef>
#include <string>
#include <vector>

#include <jetperf/traces/kernel_links.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

struct op_total {
  std::string key;
  std::size_t count = 0;
  double cpu_total_us = 0;
  double self_cpu_us = 0;
  double device_total_us = 0;  ///< kernels launched by the op and its children
  double device_self_us = 0;   ///< kernels launched by the op's own runtime calls
  bool label = false;          ///< a record_function range (user_annotation), not an op
};

struct kernel_total {
  std::string name;
  std::string kind;  ///< "kernel", "memcpy" or "memset"
  std::size_t count = 0;
  double total_us = 0;
  double min_us = 0;
  double max_us = 0;
};

/// One row per key, by CPU total, largest first (ties by key).
std::vector<op_total> compute_op_totals(const trace& t, const op_tree& tree, const kernel_links& links);
/// One row per device event name, by total, largest first (ties by name).
std::vector<kernel_total> compute_kernel_totals(const trace& t);

/// The key torch groups an event name under ("ProfilerStep#3" -> "ProfilerStep*").
std::string op_key(const std::string& name);

}  // namespace jetperf::traces
