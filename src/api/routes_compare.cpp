#include <limits>

#include <jetperf/api/json_body.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/job_comparison.hpp>
#include <jetperf/jobs/point_tally.hpp>
#include <jetperf/store/cell_json.hpp>
#include <jetperf/jobs/point_rows.hpp>

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

constexpr double k_default_threshold = 0.05;

nlohmann::json summary_json(const stats::sample_summary& s) { return {{"mean", s.mean}, {"sd", s.sd}, {"n", s.n}}; }

nlohmann::json metric_json(const jobs::metric_comparison& m) {
  const auto& r = m.ratio;
  return {{"metric", m.metric},
          {"unit", m.unit},
          {"a", summary_json(m.a)},
          {"b", summary_json(m.b)},
          {"test", to_string(m.test)},
          {"ratio", r.ratio},
          {"ratio_ci95", r.valid ? nlohmann::json::array({r.lo, r.hi}) : nlohmann::json()},
          {"dof", r.valid ? nlohmann::json(r.dof) : nlohmann::json()},
          {"verdict", to_string(m.verdict)},
          {"regressed", m.regressed}};
}

nlohmann::json comparison_json(const jobs::job_comparison& c) {
  auto pairs = nlohmann::json::array();
  for (const auto& p : c.pairs) {
    auto metrics = nlohmann::json::array();
    for (const auto& m : p.metrics) metrics.push_back(metric_json(m));
    pairs.push_back({{"params", to_json(p.params)},
                     {"a_points", p.a_points},
                     {"b_points", p.b_points},
                     {"metrics", std::move(metrics)}});
  }
  return {{"threshold", c.threshold},
          {"pairs", std::move(pairs)},
          {"only_in_a", c.only_in_a},
          {"only_in_b", c.only_in_b},
          {"regressions", c.regressions}};
}

std::int64_t required_job_id(const route_request& r, const char* name) {
  const auto id = r.query.integer(name, 1, std::numeric_limits<std::int64_t>::max(), 0);
  if (id == 0)
    throw validation_error(name, std::string("the query parameter ") + name + " is required (a job id)");
  return id;
}

// Two jobs of one kind, point by point: each pair of points with the same parameters, per
// metric b over a with its interval and verdict (jobs/job_comparison.hpp).
http_response compare_two(const route_request& r) {
  r.query.reject_unknown({"a", "b", "threshold"});
  const auto a_id = required_job_id(r, "a");
  const auto b_id = required_job_id(r, "b");
  const double threshold = r.query.number("threshold", 0.0, 10.0, k_default_threshold);
  const auto a = r.svc.jobs->get(a_id);
  const auto b = r.svc.jobs->get(b_id);
  if (a.kind != b.kind)
    throw validation_error("b", "job " + std::to_string(b_id) + " is a " + b.kind + " job and job " +
                                    std::to_string(a_id) + " a " + a.kind + " job: only jobs of one kind compare",
                           "kind_mismatch");
  const auto& workload = r.svc.jobs->registry().get(a.kind);
  const auto a_rows = jobs::point_rows(r.svc.jobs->points(a_id));
  const auto b_rows = jobs::point_rows(r.svc.jobs->points(b_id));
  auto body = comparison_json(jobs::compare_jobs(workload.columns().columns, a_rows, b_rows, threshold));
  body["a"] = {{"job_id", a_id}, {"kind", a.kind}, {"state", to_string(a.state)}};
  body["b"] = {{"job_id", b_id}, {"kind", b.kind}, {"state", to_string(b.state)}};
  return json_response(200, body);
}

}  // namespace

void register_compare_routes(route_table& table) {
  table.add("GET", "/v1/jobs/{id}/compare", compare, {false, /*may_wait=*/true});
  table.add("GET", "/v1/compare", compare_two, {false, /*may_wait=*/true});
}

}  // namespace jetperf::api
