#include "kinds.hpp"

#include <jetperf/kinds/gemm/gemm_kind.hpp>
#include <jetperf/kinds/idle/idle_kind.hpp>
#include <jetperf/kinds/layers/layers_kind.hpp>

namespace jetperf::daemon {

// A new kind is a folder under src/kinds/ and one line here (README, "Adding a job kind").
void register_kinds(jobs::workload_registry& registry) {
  registry.add(kinds::make_idle_kind());
  registry.add(kinds::make_gemm_kind());
  registry.add(kinds::make_layers_kind());
}

}  // namespace jetperf::daemon
