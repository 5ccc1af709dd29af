#pragma once
// The `multi_dnn` job kind (seed 001's multi-DNN workloads): each point is one mapping of several
// zoo networks onto the CPU and the GPU, run concurrently for a window, with every network's
// throughput and each stage's inference and transfer times, the board's power and seed 001's
// tegrastats aggregates.
#include <memory>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/kinds/multi_dnn/network_pipeline.hpp>

namespace jetperf::kinds {

/// The workload with this build's layer backends (oneDNN, cuDNN).
std::unique_ptr<jobs::workload> make_multi_dnn_kind();

/// The same with injected backends (tests).
std::unique_ptr<jobs::workload> make_multi_dnn_kind(stage_backend_factory factory);

}  // namespace jetperf::kinds
