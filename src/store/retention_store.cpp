#include <jetperf/store/retention_store.hpp>

#include <mutex>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;

// States a job does not leave on its own (an interrupted job may be resumed: its samples wait).
constexpr const char* k_finished_states = "('succeeded', 'partial', 'failed', 'cancelled')";
}  // namespace

std::optional<retention_record> retention_store::find(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT pinned, samples, changed_ns FROM job_retention WHERE job_id = ?");
  st.bind(1, job_id);
  if (!st.step()) return std::nullopt;
  return retention_record{st.column_int(0) != 0, st.column_text(1), st.column_int(2)};
}

void retention_store::set_pinned(std::int64_t job_id, bool pinned, std::int64_t now_wall_ns) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "INSERT INTO job_retention (job_id, pinned, changed_ns) VALUES (?1, ?2, ?3) "
               "ON CONFLICT (job_id) DO UPDATE SET pinned = ?2, changed_ns = ?3");
  st.bind(1, job_id).bind(2, pinned ? 1 : 0).bind(3, now_wall_ns);
  st.run();
}

void retention_store::set_samples(std::int64_t job_id, const std::string& samples, std::int64_t now_wall_ns) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "INSERT INTO job_retention (job_id, samples, changed_ns) VALUES (?1, ?2, ?3) "
               "ON CONFLICT (job_id) DO UPDATE SET samples = ?2, changed_ns = ?3");
  st.bind(1, job_id).bind(2, samples).bind(3, now_wall_ns);
  st.run();
}

std::vector<std::int64_t> retention_store::due(const std::vector<std::string>& states,
                                               std::int64_t finished_before_wall_ns, std::size_t limit) const {
  std::string in;
  for (std::size_t i = 0; i < states.size(); ++i) in += (i ? ", ?" : "?") + std::to_string(i + 3);
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               std::string("SELECT j.id FROM jobs j LEFT JOIN job_retention r ON r.job_id = j.id "
                           "WHERE j.state IN ") + k_finished_states +
                   " AND j.finished_ns > 0 AND j.finished_ns < ?1 AND coalesce(r.pinned, 0) = 0 "
                   "AND coalesce(r.samples, 'full') IN (" + in + ") ORDER BY j.finished_ns, j.id LIMIT ?2");
  st.bind(1, finished_before_wall_ns).bind(2, static_cast<std::int64_t>(limit));
  for (std::size_t i = 0; i < states.size(); ++i) st.bind(static_cast<int>(i + 3), states[i]);
  std::vector<std::int64_t> out;
  while (st.step()) out.push_back(st.column_int(0));
  return out;
}

std::optional<std::int64_t> retention_store::oldest_full_rate_finish() const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               std::string("SELECT min(j.finished_ns) FROM jobs j LEFT JOIN job_retention r ON r.job_id = j.id "
                           "WHERE j.state IN ") + k_finished_states +
                   " AND j.finished_ns > 0 AND coalesce(r.samples, 'full') = 'full'");
  if (!st.step() || st.column_is_null(0)) return std::nullopt;
  return st.column_int(0);
}

}  // namespace jetperf::store
