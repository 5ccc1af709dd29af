#pragma once
// What the runner records about a job besides its points: where its numbers come from
// (provenance), the clocks that map its traces onto its samples, its timeline spans, its summary,
// and the state it ended in. A final state the database refuses (a full disk) is kept here, where
// reads see it, and retried until it is stored.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/jobs/point_row.hpp>
#include <jetperf/jobs/point_tally.hpp>
#include <jetperf/jobs/workload.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/timeline_store.hpp>

namespace jetperf::jobs {

class job_journal {
 public:
  /// `provenance` (may be empty) says where a job's numbers come from: board, software versions,
  /// sensor, sampling.
  job_journal(store::database& db, store::job_store& jobs, std::function<cell()> provenance);

  /// Stores provenance() with job `id` (at its start and again at its end, then with the sampling
  /// it achieved); nothing without a provenance source. A failure is logged, never fatal to the job.
  void record_provenance(std::int64_t id);
  /// Stores CLOCK_REALTIME against CLOCK_MONOTONIC on the job's timeline (track "clocks"), at its
  /// start and end: what maps a trace stamped in wall-clock time (Kineto) onto the job's samples,
  /// and how far the two clocks drifted meanwhile (NTP slews realtime). A failure is logged.
  void record_clocks(std::int64_t id);
  /// The kind's summary over the job's stored points, with the tally's counts and caveats; a
  /// failure is logged.
  void record_summary(std::int64_t id, const workload& w, const std::vector<point_row>& rows,
                      const point_tally& tally);
  /// Stores a finished point's spans: its own (points, from `started_ns` to `ended_ns`), its
  /// measurement window (windows; none when empty) and what the workload recorded (`spans`,
  /// emptied).
  void record_point_spans(std::int64_t id, const point_row& p, std::int64_t window_start_ns, std::int64_t window_end_ns,
                          std::int64_t started_ns, std::int64_t ended_ns, std::vector<store::timeline_span>& spans);
  /// Stores the spans and empties the vector; a failure is logged, not thrown.
  void store_spans(std::int64_t id, std::vector<store::timeline_span>& spans);
  /// Removes what points `first_point` and after stored of their spans (an interrupted point's,
  /// measured again when the job resumes). Throws what the store throws.
  void forget_spans_from(std::int64_t id, std::int64_t first_point);

  /// Stores the state a job ended in; when the database refuses it, keeps it in memory and retries
  /// it (save_unsaved_states) until it is stored.
  void save_final_state(std::int64_t id, job_state state, const std::string& error);
  /// Retries the states kept in memory; one the state machine refuses is dropped (logged).
  void save_unsaved_states();
  /// Whether job `id`'s final state is kept in memory, not stored yet.
  bool is_unsaved(std::int64_t id) const;
  /// A job as reads must see it: its unsaved final state, if any.
  void overlay_unsaved(store::job_record& job) const;
  void overlay_unsaved(std::vector<store::job_record>& jobs) const;

 private:
  void save_unsaved_locked();
  void overlay_locked(store::job_record& job) const;

  store::job_store& jobs_;
  store::timeline_store timeline_;
  std::function<cell()> provenance_;
  mutable std::mutex mutex_;
  // Final states the database refused, by job: {state, error}; guarded by mutex_.
  std::map<std::int64_t, std::pair<job_state, std::string>> unsaved_;
};

}  // namespace jetperf::jobs
