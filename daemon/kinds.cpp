#include "kinds.hpp"

#include <jetperf/kinds/command/command_kind.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>
#include <jetperf/kinds/idle/idle_kind.hpp>
#include <jetperf/kinds/layers/layers_kind.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_kind.hpp>
#include <jetperf/kinds/sensor/sensor_kind.hpp>

namespace jetperf::daemon {

// A new kind is a folder under src/kinds/ and one line here (README, "Adding a job kind").
void register_kinds(jobs::workload_registry& registry, const kinds::command_policy& command) {
  registry.add(kinds::make_idle_kind());
  registry.add(kinds::make_gemm_kind());
  registry.add(kinds::make_layers_kind());
  registry.add(kinds::make_multi_dnn_kind());
  registry.add(kinds::make_sensor_kind());
  // Registered when off too: a submission is then told which configuration keys enable it.
  registry.add(kinds::make_command_kind(command));
}

}  // namespace jetperf::daemon
