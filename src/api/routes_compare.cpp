#include <jetperf/api/json_body.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/point_tally.hpp>
#include <jetperf/store/cell_json.hpp>

namespace jetperf::api {

namespace {

// The workload of the job's kind knows which comparisons make sense (gemm: tensor on/off,
// the most efficient clock); the route only finds the job and its points.
http_response compare(const route_request& r) {
  r.query.reject_unknown({"by"});
  const auto by = r.query.get("by");
  if (!by || by->empty()) throw validation_error("by", "the query parameter by is required (e.g. by=tensor)");
  const auto id = r.id_param();
  const auto job = r.svc.jobs->get(id);
  const auto& workload = r.svc.jobs->registry().get(job.kind);
  const auto rows = jobs::point_rows(r.svc.jobs->points(id));
  return json_response(200, {{"job_id", id},
                             {"by", *by},
                             {"rows", to_json(workload.compare(rows, *by))},
                             {"caveats", jobs::tally_points(rows).caveats()}});
}

}  // namespace

void register_compare_routes(route_table& table) {
  table.add("GET", "/v1/jobs/{id}/compare", compare, {false, /*may_wait=*/true});
}

}  // namespace jetperf::api
