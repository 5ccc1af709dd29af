#include <jetperf/jobs/job_journal.hpp>

#include <optional>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/job_cells.hpp>

namespace jetperf::jobs {

job_journal::job_journal(store::database& db, store::job_store& jobs, std::function<cell()> provenance)
    : jobs_(jobs), timeline_(db), provenance_(std::move(provenance)) {}

void job_journal::record_provenance(std::int64_t id) {
  if (!provenance_) return;
  try {
    store::set_provenance(jobs_, id, provenance_());
  } catch (const std::exception& e) {
    spdlog::warn("job {}: provenance not recorded: {}", id, e.what());
  }
}

void job_journal::record_clocks(std::int64_t id) {
  const auto c = read_clock_pair();
  try {
    timeline_.add({store::stored_span(id, std::nullopt, "clocks", "realtime", c.monotonic_ns, c.monotonic_ns,
                                      {{"realtime_ns", c.realtime_ns}, {"read_ns", c.read_ns}})});
  } catch (const std::exception& e) {
    spdlog::warn("job {}: clock reading not stored: {}", id, e.what());
  }
}

void job_journal::record_summary(std::int64_t id, const workload& w, const std::vector<point_row>& rows,
                                 const point_tally& tally) {
  try {
    auto summary = w.summarize(rows);
    if (!summary.is_record()) summary = record();
    summary.as_record().set("points", tally.to_record());
    summary.as_record().set("caveats", tally.caveats());
    store::set_summary(jobs_, id, summary);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: summary failed: {}", id, e.what());
  }
}

void job_journal::record_point_spans(std::int64_t id, const point_row& p, std::int64_t window_start_ns,
                                     std::int64_t window_end_ns, std::int64_t started_ns, std::int64_t ended_ns,
                                     std::vector<store::timeline_span>& spans) {
  record args{{"params", p.params}, {"status", p.status}};
  if (const auto* reason = p.metrics.find("reason")) args.set("reason", *reason);
  if (const auto* error = p.metrics.find("error")) args.set("error", *error);
  spans.push_back(store::stored_span(id, p.index, "points", "point " + std::to_string(p.index), started_ns, ended_ns,
                                     args));
  if (window_end_ns > window_start_ns)
    spans.push_back(store::stored_span(id, p.index, "windows", "window " + std::to_string(p.index), window_start_ns,
                                       window_end_ns));
  store_spans(id, spans);
}

void job_journal::store_spans(std::int64_t id, std::vector<store::timeline_span>& spans) {
  try {
    timeline_.add(spans);
  } catch (const std::exception& e) {
    // The timeline is a view of the job; losing it must not fail the measurement it shows.
    spdlog::warn("job {}: {} timeline spans were not stored: {}", id, spans.size(), e.what());
  }
  spans.clear();
  spans.shrink_to_fit();
}

void job_journal::forget_spans_from(std::int64_t id, std::int64_t first_point) {
  timeline_.remove_from_point(id, first_point);
}

void job_journal::save_final_state(std::int64_t id, job_state state, const std::string& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  unsaved_[id] = {state, error};
  save_unsaved_locked();
}

void job_journal::save_unsaved_states() {
  std::lock_guard<std::mutex> lock(mutex_);
  save_unsaved_locked();
}

void job_journal::save_unsaved_locked() {
  for (auto it = unsaved_.begin(); it != unsaved_.end();) {
    try {
      jobs_.set_state(it->first, it->second.first, it->second.second);
      it = unsaved_.erase(it);
    } catch (const conflict& e) {
      // Not a storage problem: the state machine refuses it, and retrying cannot change that.
      spdlog::error("job {}: its final state ({}) is refused: {}", it->first, to_string(it->second.first), e.what());
      it = unsaved_.erase(it);
    } catch (const std::exception& e) {
      // Kept in memory (reads show it) and retried; a restart marks the job interrupted.
      spdlog::error("job {}: its final state ({}) is not stored yet: {}", it->first, to_string(it->second.first),
                    e.what());
      ++it;
    }
  }
}

bool job_journal::is_unsaved(std::int64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return unsaved_.count(id) > 0;
}

void job_journal::overlay_unsaved(store::job_record& job) const {
  std::lock_guard<std::mutex> lock(mutex_);
  overlay_locked(job);
}

void job_journal::overlay_unsaved(std::vector<store::job_record>& jobs) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& job : jobs) overlay_locked(job);
}

void job_journal::overlay_locked(store::job_record& job) const {
  const auto it = unsaved_.find(job.id);
  if (it == unsaved_.end()) return;
  job.state = it->second.first;
  job.error = it->second.second;
}

}  // namespace jetperf::jobs
