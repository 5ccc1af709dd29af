#include <jetperf/jobs/job_journal.hpp>

#include <optional>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::jobs {

job_journal::job_journal(store::database& db, store::job_store& jobs, std::function<nlohmann::json()> provenance)
    : jobs_(jobs), timeline_(db), provenance_(std::move(provenance)) {}

void job_journal::record_provenance(std::int64_t id) {
  if (!provenance_) return;
  try {
    jobs_.set_provenance(id, provenance_());
  } catch (const std::exception& e) {
    spdlog::warn("job {}: provenance not recorded: {}", id, e.what());
  }
}

void job_journal::record_clocks(std::int64_t id) {
  const auto c = read_clock_pair();
  try {
    timeline_.add({{id, std::nullopt, "clocks", "realtime", c.monotonic_ns, c.monotonic_ns,
                    {{"realtime_ns", c.realtime_ns}, {"read_ns", c.read_ns}}}});
  } catch (const std::exception& e) {
    spdlog::warn("job {}: clock reading not stored: {}", id, e.what());
  }
}

void job_journal::record_summary(std::int64_t id, const workload& w, const nlohmann::json& spec,
                                 const std::vector<store::point_record>& stored, const point_tally& tally) {
  try {
    auto summary = w.summarize(spec, stored);
    if (!summary.is_object()) summary = nlohmann::json::object();
    summary["points"] = tally.to_json();
    summary["caveats"] = tally.caveats();
    jobs_.set_summary(id, summary);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: summary failed: {}", id, e.what());
  }
}

void job_journal::record_point_spans(std::int64_t id, const store::point_record& p, std::int64_t started_ns,
                                     std::int64_t ended_ns, std::vector<store::timeline_span>& spans) {
  nlohmann::json args = {{"params", p.params}, {"status", p.status}};
  if (p.metrics.contains("reason")) args["reason"] = p.metrics["reason"];
  if (p.metrics.contains("error")) args["error"] = p.metrics["error"];
  spans.push_back({id, p.index, "points", "point " + std::to_string(p.index), started_ns, ended_ns, std::move(args)});
  if (p.t_end_ns > p.t_start_ns)
    spans.push_back({id, p.index, "windows", "window " + std::to_string(p.index), p.t_start_ns, p.t_end_ns,
                     nlohmann::json::object()});
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
