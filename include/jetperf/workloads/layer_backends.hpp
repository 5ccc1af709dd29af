#pragma once
// Factories of the layer backends this build has.
#include <memory>
#include <string>

#include <jetperf/backend/layer_backend.hpp>

namespace jetperf::workloads {

/// oneDNN primitives; nullptr with `why` = "not supported by this build (no oneDNN)" without it.
std::unique_ptr<layer_backend> make_onednn_layer_backend(std::string* why = nullptr);

/// cuDNN (legacy API) + cuBLAS + kernels/; nullptr with `why` = "skipped: no CUDA device (...)"
/// without a usable device, or "not supported by this build (no cuDNN)" without the library.
std::unique_ptr<layer_backend> make_cudnn_layer_backend(std::string* why = nullptr);

/// Plain C++ loops in float: slow, obviously correct; what the tests compare the others against.
std::unique_ptr<layer_backend> make_reference_layer_backend();

/// The backend for a spec device ("cpu" -> oneDNN, "cuda" -> cuDNN).
std::unique_ptr<layer_backend> make_layer_backend(const std::string& device, std::string* why = nullptr);

}  // namespace jetperf::workloads
