#include <jetperf/api/routes.hpp>

namespace jetperf::api {

void register_all_routes(route_table& table) {
  register_system_routes(table);
  register_job_routes(table);
  register_result_routes(table);
  register_event_routes(table);
  // New areas register here (board, power-mode, clocks, telemetry, metrics, samples).
}

}  // namespace jetperf::api
