#pragma once
// record_function ranges (user annotations: "forward", "## iteration 3 ##", torch's own
// "ProfilerStep#2" and "Optimizer.step#SGD.step") are labels, not ops: the breakdown's host
// overheads descend through them and its op table marks them. Kineto says which events they are
// ("cat": "user_annotation"); torch's legacy profiler writes no category at all, so there they
// are told from ops by their names.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

/// Whether `name`, in a trace without categories, is a record_function range rather than an op.
/// torch names its ops with a namespace ("aten::mm", "torch::autograd::AccumulateGrad",
/// "autograd::engine::evaluate_function: AddmmBackward0", a custom "mylib::op") and its autograd
/// nodes after their function ("AddmmBackward0", "CppNode<Fn>"); a range is named as its caller
/// chose. A name starting with one of `markers` (seed 004's label prefixes, overhead_model::
/// module_markers: "module::" has a namespace too) is a label either way.
bool is_label_name(std::string_view name, const std::vector<std::string>& markers);

/// In a trace whose events carry no category (trace::categorized false), marks every event
/// is_label_name calls a label as event_category::user_annotation, as Kineto would have written
/// it. A categorized trace is left as it is. Returns the events marked.
std::size_t mark_legacy_labels(trace& t, const std::vector<std::string>& markers);

}  // namespace jetperf::traces
