#include <jetperf/store/reboot_journal.hpp>

#include <jetperf/common/clock.hpp>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;
}  // namespace

void reboot_journal::record(std::int64_t job_id, std::int64_t point_index, std::int64_t power_mode) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "INSERT OR REPLACE INTO reboot_resumes (job_id, point_index, power_mode, created_ns) VALUES (?, ?, ?, ?)");
  st.bind(1, job_id).bind(2, point_index).bind(3, power_mode).bind(4, wall_ns());
  st.run();
}

std::optional<reboot_resume> reboot_journal::pending() const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "SELECT job_id, point_index, power_mode, created_ns FROM reboot_resumes ORDER BY created_ns, job_id LIMIT 1");
  if (!st.step()) return std::nullopt;
  return reboot_resume{st.column_int(0), st.column_int(1), st.column_int(2), st.column_int(3)};
}

void reboot_journal::clear(std::int64_t job_id) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "DELETE FROM reboot_resumes WHERE job_id = ?");
  st.bind(1, job_id);
  st.run();
}

}  // namespace jetperf::store
