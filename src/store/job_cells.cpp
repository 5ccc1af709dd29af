#include <jetperf/store/job_cells.hpp>

#include <utility>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/cell_json.hpp>

namespace jetperf::store {

record spec_of(const job_record& job) {
  // Every spec is stored as an object; anything else was written by something else, and running
  // the job on every default would read as its own spec.
  if (!job.spec.is_null() && !job.spec.is_object())
    throw corrupt_record("corrupt_job", "job " + std::to_string(job.id) + " has a stored spec that is no JSON object",
                         "spec");
  return record_of(job.spec);
}
record params_of(const point_record& p) { return record_of(p.params); }
row metrics_of(const point_record& p) { return row_of(p.metrics); }

point_record stored_point(std::int64_t job_id, std::int64_t index, std::string status, const record& params,
                          const row& metrics, std::int64_t t_start_ns, std::int64_t t_end_ns) {
  point_record p;
  p.job_id = job_id;
  p.index = index;
  p.params = to_json(params);
  p.metrics = to_json(metrics);
  p.status = std::move(status);
  p.t_start_ns = t_start_ns;
  p.t_end_ns = t_end_ns;
  return p;
}

timeline_span stored_span(std::int64_t job_id, std::optional<std::int64_t> point_index, std::string track,
                          std::string name, std::int64_t t_start_ns, std::int64_t t_end_ns, const record& args) {
  return {job_id, point_index, std::move(track), std::move(name), t_start_ns, t_end_ns, to_json(args)};
}

std::int64_t insert_job(job_store& jobs, const std::string& kind, const record& spec,
                        const std::vector<std::string>& tags, std::int64_t points_total, double estimate_s,
                        std::int64_t spec_version, const estimate_basis& basis) {
  return jobs.insert(kind, to_json(spec), tags, points_total, estimate_s, spec_version, basis);
}

void set_summary(job_store& jobs, std::int64_t id, const cell& summary) { jobs.set_summary(id, to_json(summary)); }
void set_provenance(job_store& jobs, std::int64_t id, const cell& provenance) {
  jobs.set_provenance(id, to_json(provenance));
}
void add_event(job_store& jobs, std::int64_t id, const std::string& type, const record& data) {
  jobs.add_event(id, type, to_json(data));
}

}  // namespace jetperf::store
