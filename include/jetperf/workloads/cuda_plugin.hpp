#pragma once
// The host's door to the CUDA half of a CUDA build: the plugin libjetperf_cuda.so, loaded on the
// first call that needs it (a CUDA job's backend), never at start, so an idle daemon or one that
// runs only CPU work does not carry cudart, cuBLAS and cuDNN. Once loaded it stays: the CUDA
// runtime cannot be unloaded safely.
#include <string>
#include <vector>

#include <jetperf/backend/cuda_plugin_abi.hpp>

namespace jetperf::workloads {

/// The plugin's table, loading it on the first call; nullptr with `why` set when this build has
/// no CUDA, no plugin file is found, it does not load (dlerror's text) or it is from another build.
/// A failed load is not retried. Thread-safe.
const cuda_plugin_table* cuda_plugin(std::string* why = nullptr);

/// Whether the plugin is loaded now; never loads it.
bool cuda_plugin_loaded();

/// Where the plugin is looked for, in order: $JETPERF_CUDA_PLUGIN, then lib/jetperf/ beside the
/// executable's directory (the build tree and an installed prefix alike), then the configured
/// install path.
std::vector<std::string> cuda_plugin_candidates();

}  // namespace jetperf::workloads
