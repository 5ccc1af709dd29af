// POST /v1/jobs/{id}/pin and DELETE /v1/jobs/{id}/pin: a pinned job keeps its samples at full
// rate whatever their age (retention_full_days and retention_days pass it by); results,
// timelines and provenance are kept for every job anyway.
#include <jetperf/api/json_body.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/retention_store.hpp>

namespace jetperf::api {

namespace {

http_response set_pin(const route_request& r, bool pinned) {
  r.query.reject_unknown({});
  if (!r.svc.retention) throw unavailable("no retention store on this host");
  const auto id = r.id_param();
  r.svc.jobs->get(id);  // not_found for an unknown job
  r.svc.retention->set_pinned(id, pinned, wall_ns());
  const auto now = r.svc.retention->find(id).value_or(store::retention_record{});
  return json_response(200, {{"id", id}, {"pinned", now.pinned}, {"samples", now.samples}});
}

http_response pin(const route_request& r) { return set_pin(r, true); }
http_response unpin(const route_request& r) { return set_pin(r, false); }

}  // namespace

void register_retention_routes(route_table& table) {
  table.add("POST", "/v1/jobs/{id}/pin", pin);
  table.add("DELETE", "/v1/jobs/{id}/pin", unpin);
}

}  // namespace jetperf::api
