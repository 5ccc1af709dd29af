#pragma once
// The `layers` job kind: every layer of a network run in isolation on its real input shape and
// measured (latency, per-rail power, energy), then the whole network end to end. Defined in
// jetperf_measure, the first library that sees both workloads and the job contract.
#include <functional>
#include <memory>
#include <string>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/backend/layer_backend.hpp>

namespace jetperf::kinds {

/// Makes a layer backend for a device ("cpu", "cuda"); nullptr with `why` when it cannot.
using layer_backend_factory =
    std::function<std::unique_ptr<workloads::layer_backend>(const std::string& device, std::string* why)>;

/// The layers workload with this build's backends (oneDNN, cuDNN).
std::unique_ptr<jobs::workload> make_layers_kind();

/// The same with injected backends (tests: the reference backend as the "cpu" device).
std::unique_ptr<jobs::workload> make_layers_kind(layer_backend_factory factory);

}  // namespace jetperf::kinds
