#pragma once
// The `command` kind: the researcher's own program (a PyTorch script, trtexec, a Caffe binary)
// run under each board setting of the sweep, one row per measured run with its power, energy,
// exit status, output tails and marked phases. Off unless the daemon's configuration enables it
// (command_policy).
#include <memory>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/kinds/command/command_policy.hpp>

namespace jetperf::kinds {

/// Markers kept per run; more are counted as dropped.
constexpr std::size_t k_max_markers_per_run = 100000;

std::unique_ptr<jobs::workload> make_command_kind(command_policy policy);

}  // namespace jetperf::kinds
