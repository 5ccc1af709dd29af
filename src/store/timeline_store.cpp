#include <jetperf/store/timeline_store.hpp>

namespace jetperf::store {

namespace {

using lock_t = std::lock_guard<std::recursive_mutex>;

// The WHERE clause of a query and its binds, shared by spans() and count().
std::string where_of(const timeline_query& q) {
  std::string w = " WHERE job_id = ?1";
  if (q.from_ns) w += " AND t_end_ns >= ?2";
  if (q.to_ns) w += " AND t_start_ns <= ?3";
  if (q.point_index) w += " AND point_index = ?4";
  return w;
}

void bind_query(statement& st, const timeline_query& q) {
  st.bind(1, q.job_id);
  if (q.from_ns) st.bind(2, *q.from_ns);
  if (q.to_ns) st.bind(3, *q.to_ns);
  if (q.point_index) st.bind(4, *q.point_index);
}

}  // namespace

void timeline_store::add(const std::vector<timeline_span>& spans) {
  if (spans.empty()) return;
  db_.transaction([&] {
    statement st(db_.handle(),
                 "INSERT INTO timeline (job_id, point_index, track, name, t_start_ns, t_end_ns, args_json) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)");
    for (const auto& s : spans) {
      st.reset();
      st.bind(1, s.job_id);
      if (s.point_index) st.bind(2, *s.point_index);
      else st.bind_null(2);
      st.bind(3, s.track).bind(4, s.name).bind(5, s.t_start_ns).bind(6, s.t_end_ns).bind(7, s.args.dump());
      st.run();
    }
  });
}

std::vector<timeline_span> timeline_store::spans(const timeline_query& q) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT job_id, point_index, track, name, t_start_ns, t_end_ns, args_json FROM timeline" +
                                 where_of(q) + " ORDER BY t_start_ns, id LIMIT ?5");
  bind_query(st, q);
  st.bind(5, static_cast<std::int64_t>(q.limit));
  std::vector<timeline_span> out;
  while (st.step()) {
    timeline_span s;
    s.job_id = st.column_int(0);
    if (!st.column_is_null(1)) s.point_index = st.column_int(1);
    s.track = st.column_text(2);
    s.name = st.column_text(3);
    s.t_start_ns = st.column_int(4);
    s.t_end_ns = st.column_int(5);
    s.args = nlohmann::json::parse(st.column_text(6), nullptr, false);
    if (s.args.is_discarded()) s.args = nlohmann::json::object();
    out.push_back(std::move(s));
  }
  return out;
}

std::int64_t timeline_store::count(const timeline_query& q) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT COUNT(*) FROM timeline" + where_of(q));
  bind_query(st, q);
  st.step();
  return st.column_int(0);
}

}  // namespace jetperf::store
