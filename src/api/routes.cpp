#include <jetperf/api/routes.hpp>

namespace jetperf::api {

void register_all_routes(route_table& table) {
  register_system_routes(table);
  register_job_routes(table);
  register_result_routes(table);
  register_compare_routes(table);
  register_event_routes(table);
  register_board_routes(table);
  register_telemetry_routes(table);
  register_samples_routes(table);
  register_retention_routes(table);
  register_trace_routes(table);
  register_trace_attachment_routes(table);
  register_model_routes(table);
  register_kind_routes(table);
  register_web_routes(table);
}

}  // namespace jetperf::api
