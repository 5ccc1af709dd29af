#include <jetperf/store/snapshot_store.hpp>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/detail/json_text.hpp>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;

const char* const k_columns = "id, job_id, created_ns, restored_ns, reason, state_json";

snapshot_record read_snapshot(const statement& st) {
  snapshot_record r;
  r.id = st.column_int(0);
  r.job_id = st.column_int(1);
  r.created_ns = st.column_int(2);
  r.restored_ns = st.column_int(3);
  r.reason = st.column_text(4);
  try {
    r.state = nlohmann::json::parse(st.column_text(5));
  } catch (const nlohmann::json::exception& e) {
    throw store_error("corrupt state of board snapshot " + std::to_string(r.id) + ": " + e.what());
  }
  return r;
}
}  // namespace

std::int64_t snapshot_store::open(std::int64_t job_id, const std::string& reason, const nlohmann::json& state) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "INSERT INTO snapshots (job_id, created_ns, restored_ns, reason, state_json) VALUES (?, ?, 0, ?, ?)");
  st.bind(1, job_id).bind(2, wall_ns()).bind(3, reason).bind(4, detail::json_text(state));
  st.run();
  return db_.last_insert_id();
}

std::optional<snapshot_record> snapshot_store::oldest_open() const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               std::string("SELECT ") + k_columns + " FROM snapshots WHERE restored_ns = 0 ORDER BY id LIMIT 1");
  if (!st.step()) return std::nullopt;
  return read_snapshot(st);
}

std::optional<snapshot_record> snapshot_store::open_of(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), std::string("SELECT ") + k_columns +
                                 " FROM snapshots WHERE restored_ns = 0 AND job_id = ? ORDER BY id DESC LIMIT 1");
  st.bind(1, job_id);
  if (!st.step()) return std::nullopt;
  return read_snapshot(st);
}

void snapshot_store::close(std::int64_t job_id) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "UPDATE snapshots SET restored_ns = ? WHERE restored_ns = 0 AND job_id = ?");
  st.bind(1, wall_ns()).bind(2, job_id);
  st.run();
}

void snapshot_store::close_all() {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "UPDATE snapshots SET restored_ns = ? WHERE restored_ns = 0");
  st.bind(1, wall_ns());
  st.run();
}

std::optional<snapshot_record> snapshot_store::get(std::int64_t id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), std::string("SELECT ") + k_columns + " FROM snapshots WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return read_snapshot(st);
}

}  // namespace jetperf::store
