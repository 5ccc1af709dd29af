#include <jetperf/store/job_store.hpp>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/detail/json_text.hpp>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;

std::string state_text(job_state s) { return to_string(s); }

bool terminal(job_state s) { return is_terminal(s); }

nlohmann::json parse_json(const std::string& text, const char* what, std::int64_t id) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw store_error(std::string("corrupt ") + what + " of job " + std::to_string(id) + ": " + e.what());
  }
}

// One JSON object column of a job row; on failure `why` gains a sentence and `out` keeps its
// default, so that one damaged column does not hide the others.
void read_object_column(const statement& st, int column, const char* name, nlohmann::json& out, std::string& why) {
  const auto text = st.column_text(column);
  auto value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded())
    why += std::string(why.empty() ? "" : "; ") + name + " is not valid JSON";
  else if (!value.is_object())
    why += std::string(why.empty() ? "" : "; ") + name + " is not a JSON object (" + value.type_name() + ")";
  else
    out = std::move(value);
}

const char* const k_job_columns =
    "id, kind, state, spec_json, created_ns, started_ns, finished_ns, points_total, points_done, estimate_s, "
    "error, summary_json, provenance_json, estimate_now_s, spec_version, estimate_basis, estimate_basis_count, "
    "estimate_now_basis, estimate_now_basis_count";
// The same without the documents (spec, summary, provenance): empty objects in their place.
const char* const k_job_list_columns =
    "id, kind, state, '{}', created_ns, started_ns, finished_ns, points_total, points_done, estimate_s, "
    "error, '{}', '{}', estimate_now_s, spec_version, estimate_basis, estimate_basis_count, estimate_now_basis, "
    "estimate_now_basis_count";

// Every column it can read; what it cannot is named in `unreadable` (the numbers and texts
// always read: SQLite converts whatever a column holds).
job_record read_job(const statement& st) {
  job_record r;
  r.id = st.column_int(0);
  r.kind = st.column_text(1);
  const auto state = st.column_text(2);
  try {
    r.state = parse_job_state(state);
  } catch (const validation_error&) {
    r.unreadable = "unknown state '" + state + "'";
  }
  r.spec = nlohmann::json::object();
  read_object_column(st, 3, "spec_json", r.spec, r.unreadable);
  r.created_ns = st.column_int(4);
  r.started_ns = st.column_int(5);
  r.finished_ns = st.column_int(6);
  r.points_total = st.column_int(7);
  r.points_done = st.column_int(8);
  r.estimate_s = st.column_double(9);
  r.error = st.column_text(10);
  read_object_column(st, 11, "summary_json", r.summary, r.unreadable);
  read_object_column(st, 12, "provenance_json", r.provenance, r.unreadable);
  r.estimate_now_s = st.column_double(13);
  r.spec_version = st.column_int(14);
  r.estimate_basis = {st.column_text(15), st.column_int(16)};
  r.estimate_now_basis = {st.column_text(17), st.column_int(18)};
  return r;
}

std::vector<std::string> read_tags(database& db, std::int64_t id) {
  statement st(db.handle(), "SELECT tag FROM job_tags WHERE job_id = ? ORDER BY rowid");
  st.bind(1, id);
  std::vector<std::string> tags;
  while (st.step()) tags.push_back(st.column_text(0));
  return tags;
}

void require_changed(database& db, std::int64_t id) {
  if (db.changes() == 0) throw not_found("job " + std::to_string(id) + " not found", "id");
}
}  // namespace

std::int64_t job_store::insert(const std::string& kind, const nlohmann::json& spec,
                               const std::vector<std::string>& tags, std::int64_t points_total, double estimate_s,
                               std::int64_t spec_version, const estimate_basis& basis) {
  if (kind.empty()) throw validation_error("kind", "job kind is empty");
  std::int64_t id = 0;
  db_.transaction([&] {
    statement st(db_.handle(),
                 "INSERT INTO jobs (kind, state, spec_json, created_ns, points_total, estimate_s, spec_version, "
                 "estimate_basis, estimate_basis_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, kind).bind(2, state_text(job_state::queued)).bind(3, detail::json_text(spec)).bind(4, wall_ns());
    st.bind(5, points_total).bind(6, estimate_s).bind(7, spec_version).bind(8, basis.source).bind(9, basis.count);
    st.run();
    id = db_.last_insert_id();
    // OR IGNORE: a tag given twice is stored once.
    statement tag(db_.handle(), "INSERT OR IGNORE INTO job_tags (job_id, tag) VALUES (?, ?)");
    for (const auto& t : tags) {
      tag.bind(1, id).bind(2, t);
      tag.run();
    }
  });
  return id;
}

std::optional<job_record> job_store::get(std::int64_t id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), std::string("SELECT ") + k_job_columns + " FROM jobs WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  job_record r = read_job(st);
  // A damaged job is never handed on to be shown, cancelled, resumed or run as if it were whole.
  if (!r.unreadable.empty())
    throw corrupt_record("corrupt_job", "job " + std::to_string(id) + " is stored damaged and cannot be read: " +
                                            r.unreadable,
                         "id");
  r.tags = read_tags(db_, id);
  return r;
}

std::vector<job_record> job_store::list(const job_filter& filter, std::int64_t* total) const {
  if (filter.limit < 0) throw validation_error("limit", "limit must not be negative");
  if (filter.offset < 0) throw validation_error("offset", "offset must not be negative");
  std::string where = " WHERE 1";
  if (filter.state) where += " AND state = ?";
  if (filter.kind) where += " AND kind = ?";
  // Every tag asked for (tag and tags alike) must be on the job.
  std::vector<std::string> tags = filter.tags;
  if (filter.tag) tags.push_back(*filter.tag);
  for (std::size_t k = 0; k < tags.size(); ++k)
    where += " AND EXISTS (SELECT 1 FROM job_tags t WHERE t.job_id = jobs.id AND t.tag = ?)";
  // Binds the filter's values in the order their placeholders appear; returns the next index.
  auto bind_filter = [&](statement& st) {
    int i = 1;
    if (filter.state) st.bind(i++, state_text(*filter.state));
    if (filter.kind) st.bind(i++, *filter.kind);
    for (const auto& t : tags) st.bind(i++, t);
    return i;
  };

  lock_t lock(db_.mutex());
  if (total) {
    statement count(db_.handle(), "SELECT COUNT(*) FROM jobs" + where);
    bind_filter(count);
    *total = count.step() ? count.column_int(0) : 0;
  }
  // Ids only grow, so id order is submission order even when two jobs share a created_ns.
  statement st(db_.handle(),
               std::string("SELECT ") + (filter.documents ? k_job_columns : k_job_list_columns) + " FROM jobs" +
                   where + " ORDER BY id DESC LIMIT ? OFFSET ?");
  const int i = bind_filter(st);
  st.bind(i, filter.limit).bind(i + 1, filter.offset);
  std::vector<job_record> out;
  while (st.step()) out.push_back(read_job(st));
  for (auto& r : out) {
    r.tags = read_tags(db_, r.id);
    // Once per job and process: clients polling the list must not flood the log.
    if (!r.unreadable.empty() && reported_unreadable_.insert(r.id).second)
      spdlog::error("job {} is stored damaged and is listed as unreadable: {}", r.id, r.unreadable);
  }
  return out;
}

job_state job_store::set_state(std::int64_t id, job_state state, const std::string& error) {
  job_state from = state;
  db_.transaction([&] {
    statement cur(db_.handle(), "SELECT state, error FROM jobs WHERE id = ?");
    cur.bind(1, id);
    if (!cur.step()) throw not_found("job " + std::to_string(id) + " not found", "id");
    try {
      from = parse_job_state(cur.column_text(0));
    } catch (const validation_error&) {
      throw corrupt_record("corrupt_job", "job " + std::to_string(id) + " has an unknown state '" +
                                              cur.column_text(0) + "' in the database", "id");
    }
    if (!can_transition(from, state, cur.column_text(1)))
      throw conflict("job " + std::to_string(id) + " is " + state_text(from) + "; it cannot become " + state_text(state),
                     "id");
    write_state(id, state, error);
  });
  return from;
}

void job_store::write_state(std::int64_t id, job_state state, const std::string& error) {
  const std::int64_t now = wall_ns();
  // Entering running stamps the start; a terminal state stamps the end; queued again (a resumed
  // job) is not finished any more.
  const char* sql =
      "UPDATE jobs SET state = ?1, error = ?2, "
      "started_ns = CASE WHEN ?3 THEN ?5 ELSE started_ns END, "
      "finished_ns = CASE WHEN ?4 THEN ?5 WHEN ?1 = 'queued' THEN 0 ELSE finished_ns END "
      "WHERE id = ?6";
  lock_t lock(db_.mutex());
  statement st(db_.handle(), sql);
  st.bind(1, state_text(state)).bind(2, error);
  st.bind(3, state == job_state::running ? 1 : 0).bind(4, terminal(state) ? 1 : 0);
  st.bind(5, now).bind(6, id);
  st.run();
  require_changed(db_, id);
}


void job_store::set_progress(std::int64_t id, std::int64_t done, std::int64_t total, double estimate_now_s,
                             const estimate_basis& basis) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "UPDATE jobs SET points_done = ?, points_total = ?, estimate_now_s = ?, estimate_now_basis = ?, "
               "estimate_now_basis_count = ? WHERE id = ?");
  st.bind(1, done).bind(2, total).bind(3, estimate_now_s).bind(4, basis.source).bind(5, basis.count).bind(6, id);
  st.run();
  require_changed(db_, id);
}

void job_store::set_summary(std::int64_t id, const nlohmann::json& summary) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "UPDATE jobs SET summary_json = ? WHERE id = ?");
  st.bind(1, detail::json_text(summary)).bind(2, id);
  st.run();
  require_changed(db_, id);
}

void job_store::set_provenance(std::int64_t id, const nlohmann::json& provenance) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "UPDATE jobs SET provenance_json = ? WHERE id = ?");
  st.bind(1, detail::json_text(provenance)).bind(2, id);
  st.run();
  require_changed(db_, id);
}

std::vector<std::int64_t> job_store::queued_ids() const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT id FROM jobs WHERE state = 'queued' ORDER BY id");
  std::vector<std::int64_t> ids;
  while (st.step()) ids.push_back(st.column_int(0));
  return ids;
}

std::vector<std::int64_t> job_store::interrupt_running(const std::string& reason) {
  std::vector<std::int64_t> ids;
  db_.transaction([&] {
    statement sel(db_.handle(), "SELECT id FROM jobs WHERE state = 'running' ORDER BY id");
    while (sel.step()) ids.push_back(sel.column_int(0));
    statement upd(db_.handle(),
                  "UPDATE jobs SET state = 'interrupted', error = ?, finished_ns = ? WHERE state = 'running'");
    upd.bind(1, reason).bind(2, wall_ns());
    upd.run();
  });
  return ids;
}

void job_store::add_point(const point_record& p) {
  lock_t lock(db_.mutex());
  // REPLACE: a resumed job that measures a point again keeps the newer result.
  statement st(db_.handle(),
               "INSERT OR REPLACE INTO points (job_id, idx, status, params_json, metrics_json, t_start_ns, t_end_ns) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, p.job_id).bind(2, p.index).bind(3, p.status).bind(4, detail::json_text(p.params)).bind(5, detail::json_text(p.metrics));
  st.bind(6, p.t_start_ns).bind(7, p.t_end_ns);
  st.run();
}

std::vector<point_record> job_store::points(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "SELECT idx, status, params_json, metrics_json, t_start_ns, t_end_ns FROM points WHERE job_id = ? "
               "ORDER BY idx");
  st.bind(1, job_id);
  std::vector<point_record> out;
  while (st.step()) {
    point_record p;
    p.job_id = job_id;
    p.index = st.column_int(0);
    p.status = st.column_text(1);
    p.params = parse_json(st.column_text(2), "point params", job_id);
    p.metrics = parse_json(st.column_text(3), "point metrics", job_id);
    p.t_start_ns = st.column_int(4);
    p.t_end_ns = st.column_int(5);
    out.push_back(std::move(p));
  }
  return out;
}

std::int64_t job_store::count_points(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT COUNT(*) FROM points WHERE job_id = ?");
  st.bind(1, job_id);
  return st.step() ? st.column_int(0) : 0;
}

void job_store::add_event(std::int64_t job_id, const std::string& type, const nlohmann::json& data) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "INSERT INTO events (job_id, t_ns, type, data_json) VALUES (?, ?, ?, ?)");
  st.bind(1, job_id).bind(2, monotonic_ns()).bind(3, type).bind(4, detail::json_text(data));
  st.run();
}

std::vector<event_record> job_store::events(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT id, t_ns, type, data_json FROM events WHERE job_id = ? ORDER BY id");
  st.bind(1, job_id);
  std::vector<event_record> out;
  while (st.step()) {
    event_record e;
    e.id = st.column_int(0);
    e.job_id = job_id;
    e.t_ns = st.column_int(1);
    e.type = st.column_text(2);
    e.data = parse_json(st.column_text(3), "event data", job_id);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace jetperf::store
