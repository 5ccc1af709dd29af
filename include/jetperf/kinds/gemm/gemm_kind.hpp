#pragma once
// The `gemm` job kind: a sweep of GEMMs over dtype x size x tensor x board settings, each point
// measured through the measurement protocol (src/measure). Defined in jetperf_measure, which is
// the first library that sees both workloads and the job contract.
#include <functional>
#include <memory>
#include <string>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/backend/gemm_backend.hpp>

namespace jetperf::kinds {

/// Makes a backend for a device ("cpu", "cuda"); nullptr with `why` when it cannot.
using gemm_backend_factory = std::function<std::unique_ptr<workloads::gemm_backend>(const std::string& device, std::string* why)>;

/// The gemm workload with this build's backends (OpenBLAS/oneDNN, cuBLAS).
std::unique_ptr<jobs::workload> make_gemm_kind();

/// The same with injected backends (tests).
std::unique_ptr<jobs::workload> make_gemm_kind(gemm_backend_factory factory);

}  // namespace jetperf::kinds
