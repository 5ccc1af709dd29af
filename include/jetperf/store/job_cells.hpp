#pragma once
// A job's stored JSON as the cells the runner reads and writes (common/cell.hpp), and back: the
// store keeps specs, points, summaries, provenance, events and span arguments as JSON text, and
// this is where the job runner's typed values cross into that form, so jobs/ names no JSON.
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/timeline_store.hpp>

namespace jetperf::store {

/// The stored spec as a record: an object's members; null (no spec at all) as no fields. Throws
/// corrupt_record (field "spec") for anything else.
record spec_of(const job_record& job);
/// A stored point's settings and measured values (an empty record/row where they are no object).
record params_of(const point_record& p);
row metrics_of(const point_record& p);

/// A point as the runner stores it.
point_record stored_point(std::int64_t job_id, std::int64_t index, std::string status, const record& params,
                          const row& metrics, std::int64_t t_start_ns, std::int64_t t_end_ns);
/// A timeline span whose arguments are a record.
timeline_span stored_span(std::int64_t job_id, std::optional<std::int64_t> point_index, std::string track,
                          std::string name, std::int64_t t_start_ns, std::int64_t t_end_ns, const record& args = {});

/// job_store::insert with the spec as a record.
std::int64_t insert_job(job_store& jobs, const std::string& kind, const record& spec,
                        const std::vector<std::string>& tags, std::int64_t points_total, double estimate_s,
                        std::int64_t spec_version, const estimate_basis& basis = {});
/// job_store::set_summary / set_provenance / add_event with cells.
void set_summary(job_store& jobs, std::int64_t id, const cell& summary);
void set_provenance(job_store& jobs, std::int64_t id, const cell& provenance);
void add_event(job_store& jobs, std::int64_t id, const std::string& type, const record& data);

}  // namespace jetperf::store
