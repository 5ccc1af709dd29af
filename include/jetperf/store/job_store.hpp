#pragma once
// Jobs, their points (one row per sweep point or layer, with params and metrics) and their events.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/database.hpp>
#include <jetperf/store/estimate_basis.hpp>
#include <jetperf/store/job_state.hpp>

namespace jetperf::store {

struct job_record {
  std::int64_t id = 0;
  std::string kind;
  job_state state = job_state::queued;
  nlohmann::json spec;              ///< normalized spec (defaults filled in)
  /// The version of its kind's spec it was stored in (0: before versions; the kind upgrades it).
  std::int64_t spec_version = 0;
  std::vector<std::string> tags;
  std::int64_t created_ns = 0;      ///< wall clock
  std::int64_t started_ns = 0;      ///< wall clock, 0 when not started
  std::int64_t finished_ns = 0;     ///< wall clock, 0 when not finished
  std::int64_t points_total = 0;
  std::int64_t points_done = 0;
  double estimate_s = 0;            ///< estimated duration at submission
  double estimate_now_s = 0;        ///< the estimated duration refreshed as it runs (0 before it ran)
  store::estimate_basis estimate_basis;      ///< what estimate_s was made from
  store::estimate_basis estimate_now_basis;  ///< what estimate_now_s was made from
  std::string error;                ///< why it failed / was interrupted, "" otherwise
  nlohmann::json summary = nlohmann::json::object();  ///< kind-specific summary (best setting, ...)
  /// Where the numbers come from (board, versions, sensor, sampling); {} before the job ran.
  nlohmann::json provenance = nlohmann::json::object();
  /// Why the stored row cannot be read (an unknown state, a JSON column that is not a JSON
  /// object), "" when it can. Only list() returns such a record, with the columns it could read
  /// and defaults for the rest; get() throws corrupt_record instead.
  std::string unreadable;
};

struct job_filter {
  std::optional<job_state> state;
  std::optional<std::string> kind;
  std::optional<std::string> tag;
  std::vector<std::string> tags;  ///< all of them (and `tag`) must be on the job
  std::int64_t limit = 50;
  std::int64_t offset = 0;
  /// Read the spec, summary and provenance too: a listing needs none of them, and a sweep's spec
  /// can be megabytes.
  bool documents = true;
};

struct point_record {
  std::int64_t job_id = 0;
  std::int64_t index = 0;          ///< position in the sweep, 0-based
  nlohmann::json params;           ///< the point's settings (dtype, m, n, k, gpu_freq_hz, ...)
  nlohmann::json metrics;          ///< measured values (time_mean_s, power_w, ...) or {"skipped": reason}
  std::string status;              ///< "ok", "skipped", "failed"
  std::int64_t t_start_ns = 0;     ///< monotonic window start
  std::int64_t t_end_ns = 0;       ///< monotonic window end
};

struct event_record {
  std::int64_t id = 0;
  std::int64_t job_id = 0;
  std::int64_t t_ns = 0;  ///< monotonic
  std::string type;       ///< "state", "progress", "point", "log", ...
  nlohmann::json data;
};

class job_store {
 public:
  explicit job_store(database& db) : db_(db) {}

  /// Inserts a queued job (created_ns = wall clock; duplicate tags stored once); returns its id.
  std::int64_t insert(const std::string& kind, const nlohmann::json& spec,
                      const std::vector<std::string>& tags, std::int64_t points_total, double estimate_s,
                      std::int64_t spec_version = 0, const estimate_basis& basis = {});
  /// Throws corrupt_record (code "corrupt_job", field "id") when the job's row cannot be read.
  std::optional<job_record> get(std::int64_t id) const;
  /// Newest first. `total` receives the count matching the filter without limit/offset.
  /// Throws validation_error("limit"/"offset") when either is negative. A row that cannot be read
  /// is listed with `unreadable` set (and logged, once per job and process) rather than failing
  /// the whole listing.
  std::vector<job_record> list(const job_filter& filter, std::int64_t* total = nullptr) const;
  /// Moves the job to `state` when the state machine allows it from the state it is in (checked
  /// and written in one transaction, so racing callers cannot both win), with the error text (""
  /// clears it) and the timestamps (wall clock): started_ns on running, finished_ns on a terminal
  /// state, finished_ns back to 0 on queued (resume). Returns the state it left. Throws conflict
  /// naming both states when the move is not allowed, not_found for an unknown id.
  job_state set_state(std::int64_t id, job_state state, const std::string& error = {});
  /// Throws not_found for an unknown id (as does set_summary).
  /// Points done out of `total`, and the job's whole duration as estimated now, from `basis`.
  void set_progress(std::int64_t id, std::int64_t done, std::int64_t total, double estimate_now_s = 0,
                    const estimate_basis& basis = {});
  void set_summary(std::int64_t id, const nlohmann::json& summary);
  void set_provenance(std::int64_t id, const nlohmann::json& provenance);
  /// Ids of queued jobs, oldest first (the order the runner takes them).
  std::vector<std::int64_t> queued_ids() const;
  /// Marks every job left `running` by a previous process as `interrupted`; returns their ids.
  std::vector<std::int64_t> interrupt_running(const std::string& reason);

  /// Stores a point; one with the same (job_id, index) is replaced (a resumed job measuring it
  /// again). store_error when the job does not exist.
  void add_point(const point_record& p);
  std::vector<point_record> points(std::int64_t job_id) const;
  std::int64_t count_points(std::int64_t job_id) const;

  /// Appends an event stamped with monotonic_ns(); store_error when the job does not exist.
  void add_event(std::int64_t job_id, const std::string& type, const nlohmann::json& data);
  /// A job's events in the order they were added.
  std::vector<event_record> events(std::int64_t job_id) const;

 private:
  /// The UPDATE of set_state, inside its transaction.
  void write_state(std::int64_t id, job_state state, const std::string& error);
  database& db_;
  mutable std::set<std::int64_t> reported_unreadable_;  ///< guarded by db_.mutex()
};

}  // namespace jetperf::store
