#include <jetperf/store/timeline_store.hpp>

#include <algorithm>
#include <limits>
#include <tuple>

#include <jetperf/store/detail/json_text.hpp>

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

// A row of "SELECT id, job_id, point_index, track, name, t_start_ns, t_end_ns, args_json".
timeline_span span_of(const statement& st) {
  timeline_span s;
  s.job_id = st.column_int(1);
  if (!st.column_is_null(2)) s.point_index = st.column_int(2);
  s.track = st.column_text(3);
  s.name = st.column_text(4);
  s.t_start_ns = st.column_int(5);
  s.t_end_ns = st.column_int(6);
  s.args = nlohmann::json::parse(st.column_text(7), nullptr, false);
  if (s.args.is_discarded()) s.args = nlohmann::json::object();
  return s;
}

}  // namespace

timeline_outline outline_of(const std::vector<timeline_span>& spans) {
  timeline_outline out;
  for (const auto& s : spans) {
    out.first_start_ns = out.spans == 0 ? s.t_start_ns : std::min(out.first_start_ns, s.t_start_ns);
    out.last_end_ns = out.spans == 0 ? s.t_end_ns : std::max(out.last_end_ns, s.t_end_ns);
    ++out.spans;
    if (std::find(out.tracks.begin(), out.tracks.end(), s.track) == out.tracks.end()) out.tracks.push_back(s.track);
  }
  return out;
}

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
      st.bind(3, s.track).bind(4, s.name).bind(5, s.t_start_ns).bind(6, s.t_end_ns).bind(7, detail::json_text(s.args));
      st.run();
    }
  });
}

std::int64_t timeline_store::remove_from_point(std::int64_t job_id, std::int64_t first_point) {
  std::int64_t removed = 0;
  db_.transaction([&] {
    statement st(db_.handle(), "DELETE FROM timeline WHERE job_id = ? AND point_index >= ?");
    st.bind(1, job_id).bind(2, first_point);
    st.run();
    removed = db_.changes();
  });
  return removed;
}

std::vector<timeline_span> timeline_store::spans(const timeline_query& q) const {
  return spans_page(q, std::nullopt, q.limit).spans;
}

timeline_page timeline_store::spans_page(const timeline_query& q, std::optional<timeline_key> after,
                                         std::size_t limit) const {
  timeline_page page;
  if (limit == 0) return page;
  // The start bound alone lets the index (job_id, t_start_ns) skip what lies before the cursor.
  const std::string cursor = after ? " AND t_start_ns >= ?6 AND (t_start_ns > ?6 OR id > ?7)" : "";
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT id, job_id, point_index, track, name, t_start_ns, t_end_ns, args_json FROM timeline" +
                                 where_of(q) + cursor + " ORDER BY t_start_ns, id LIMIT ?5");
  bind_query(st, q);
  // One row more than asked says whether more follow.
  const auto wanted = static_cast<std::int64_t>(std::min<std::size_t>(limit, std::numeric_limits<std::int64_t>::max() - 1));
  st.bind(5, wanted + 1);
  if (after) st.bind(6, after->t_start_ns).bind(7, after->id);
  timeline_key last;
  while (st.step()) {
    if (static_cast<std::int64_t>(page.spans.size()) == wanted) {
      page.next_after = last;
      break;
    }
    page.spans.push_back(span_of(st));
    last = {st.column_int(5), st.column_int(0)};
  }
  return page;
}

std::int64_t timeline_store::count(const timeline_query& q) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT COUNT(*) FROM timeline" + where_of(q));
  bind_query(st, q);
  st.step();
  return st.column_int(0);
}

timeline_outline timeline_store::outline(const timeline_query& q) const {
  timeline_outline out;
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT track, COUNT(*), MIN(t_start_ns), MAX(t_end_ns) FROM timeline" + where_of(q) +
                                 " GROUP BY track");
  bind_query(st, q);
  // (first start, id of the first span starting then, track): spans()'s order of first spans.
  std::vector<std::tuple<std::int64_t, std::int64_t, std::string>> firsts;
  while (st.step()) {
    const auto first = st.column_int(2), last = st.column_int(3);
    out.first_start_ns = out.spans == 0 ? first : std::min(out.first_start_ns, first);
    out.last_end_ns = out.spans == 0 ? last : std::max(out.last_end_ns, last);
    out.spans += st.column_int(1);
    firsts.emplace_back(first, 0, st.column_text(0));
  }
  // Two tracks may start at the same time: the one whose span was added first comes first.
  statement first_id(db_.handle(), "SELECT MIN(id) FROM timeline" + where_of(q) + " AND track = ?6 AND t_start_ns = ?7");
  for (auto& [t, id, track] : firsts) {
    first_id.reset();
    bind_query(first_id, q);
    first_id.bind(6, track).bind(7, t);
    if (first_id.step()) id = first_id.column_int(0);
  }
  std::sort(firsts.begin(), firsts.end());
  for (auto& f : firsts) out.tracks.push_back(std::move(std::get<2>(f)));
  return out;
}

}  // namespace jetperf::store
