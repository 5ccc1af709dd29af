#pragma once
// The `command` kind: the researcher's own program (a PyTorch script, trtexec, a Caffe binary)
// run under each board setting of the sweep, one row per measured run with its power, energy,
// exit status, output tails and marked phases. Off unless the daemon's configuration enables it
// (command_policy).
#include <memory>
#include <string>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/kinds/command/command_policy.hpp>
#include <jetperf/platform/user_process.hpp>

namespace jetperf::kinds {

/// Markers kept per run; more are counted as dropped.
constexpr std::size_t k_max_markers_per_run = 100000;

std::unique_ptr<jobs::workload> make_command_kind(command_policy policy);

/// Why a run failed, its row's `error` ("" when it did not): a limit it met first ("oom: ...",
/// "pids: ..."), whatever its exit status says (a program that handles a refused fork may
/// still exit 0, and its figures are not those of the program asked for), then a timeout, a
/// signal, a non-zero exit status.
std::string run_failure(const platform::user_process_result& run, double timeout_s, const platform::run_limits& limits);

}  // namespace jetperf::kinds
