#pragma once
// Every route file has one register function; register_all_routes (routes.cpp) calls them in
// order. A new area (board, power-mode, clocks, telemetry, metrics, samples) adds its
// routes_<area>.cpp with a register function declared here and one line in routes.cpp.
#include <jetperf/api/route_table.hpp>

namespace jetperf::api {

/// GET /v1/health, GET /v1/time, GET /v1/openapi.json.
void register_system_routes(route_table& table);
/// POST/GET /v1/jobs, GET/DELETE /v1/jobs/{id}, POST /v1/jobs/{id}/resume.
void register_job_routes(route_table& table);
/// GET /v1/jobs/{id}/results?format=json|csv.
void register_result_routes(route_table& table);
/// GET /v1/jobs/{id}/compare?by=tensor|<param> (the job kind's comparisons).
void register_compare_routes(route_table& table);
/// GET /v1/jobs/{id}/events (SSE).
void register_event_routes(route_table& table);

/// GET /v1/board, GET/PUT /v1/power-mode, GET/PUT /v1/clocks, POST /v1/clocks/restore.
void register_board_routes(route_table& table);
/// GET /v1/telemetry, GET /v1/telemetry/stream (SSE), GET /v1/jobs/{id}/samples, GET /metrics.
void register_telemetry_routes(route_table& table);
void register_samples_routes(route_table& table);
/// POST and DELETE /v1/jobs/{id}/pin (routes_retention.cpp).
void register_retention_routes(route_table& table);
/// GET /v1/jobs/{id}/trace (routes_trace.cpp).
void register_trace_routes(route_table& table);
/// POST/GET /v1/jobs/{id}/traces, GET /v1/jobs/{id}/traces/{n} (routes_trace_attach.cpp).
void register_trace_attachment_routes(route_table& table);
/// GET /v1/models (the zoo's summaries), GET /v1/models/{name}?granularity=block|op&batch=N.
void register_model_routes(route_table& table);
void register_kind_routes(route_table& table);
/// GET / (the page), GET /web/{path} (its files), GET /javascript/{path} (Debian's libjs-*).
void register_web_routes(route_table& table);

void register_all_routes(route_table& table);

}  // namespace jetperf::api
