#include <jetperf/api/job_view.hpp>

#include <algorithm>

#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/estimate_basis_record.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/store/cell_json.hpp>

namespace jetperf::api {

namespace {
nlohmann::json time_or_null(std::int64_t wall) {
  return wall ? nlohmann::json(format_wall_time(wall)) : nlohmann::json(nullptr);
}
// A damaged row (store::job_record::unreadable): listed so that one bad row does not hide the
// others, with the state "unreadable", the reason as its error, and what could be read.
nlohmann::json unreadable_job_json(const store::job_record& job) {
  return {{"id", job.id},
          {"kind", job.kind},
          {"state", "unreadable"},
          {"spec", job.spec},
          {"tags", job.tags},
          {"created_at", time_or_null(job.created_ns)},
          {"started_at", time_or_null(job.started_ns)},
          {"finished_at", time_or_null(job.finished_ns)},
          {"progress", {{"done", job.points_done}, {"total", job.points_total}, {"fraction", 0.0}, {"eta_s", nullptr}}},
          {"estimate_s", job.estimate_s},
          {"error", "the stored job cannot be read: " + job.unreadable},
          {"summary", job.summary},
          {"provenance", job.provenance}};
}

}  // namespace

nlohmann::json job_json(const store::job_record& job) {
  if (!job.unreadable.empty()) return unreadable_job_json(job);
  nlohmann::json eta = nullptr;
  const store::estimate_basis* basis = nullptr;
  if (job.state == jobs::job_state::running) {
    const double elapsed = job.started_ns ? static_cast<double>(wall_ns() - job.started_ns) / 1e9 : 0.0;
    // The estimate refreshed as points finish (the cost model and the job's own pace), else the
    // one given at submission.
    const bool refreshed = job.points_done > 0 && job.estimate_now_s > 0;
    eta = std::max(0.0, (refreshed ? job.estimate_now_s : job.estimate_s) - elapsed);
    basis = refreshed ? &job.estimate_now_basis : &job.estimate_basis;
  } else if (job.state == jobs::job_state::queued) {
    eta = job.estimate_s;
    basis = &job.estimate_basis;
  }
  const double fraction =
      job.points_total > 0 ? static_cast<double>(job.points_done) / static_cast<double>(job.points_total) : 0.0;
  nlohmann::json progress = {
      {"done", job.points_done}, {"total", job.points_total}, {"fraction", fraction}, {"eta_s", eta}};
  // Only beside an ETA, and only where it is known: a finished job's view stays as it was stored.
  if (const auto b = basis ? jobs::estimate_basis_record(*basis) : std::nullopt) progress["eta_basis"] = to_json(*b);
  return {{"id", job.id},
          {"kind", job.kind},
          {"state", to_string(job.state)},
          {"spec", job.spec},
          {"tags", job.tags},
          {"created_at", time_or_null(job.created_ns)},
          {"started_at", time_or_null(job.started_ns)},
          {"finished_at", time_or_null(job.finished_ns)},
          {"progress", progress},
          {"estimate_s", job.estimate_s},
          {"error", job.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(job.error)},
          {"summary", job.summary},
          {"provenance", job.provenance}};
}

nlohmann::json job_list_item_json(const store::job_record& job) {
  auto j = job_json(job);
  for (const char* document : {"spec", "summary", "provenance"}) j.erase(document);
  return j;
}

}  // namespace jetperf::api
