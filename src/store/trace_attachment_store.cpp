#include <jetperf/store/trace_attachment_store.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/detail/json_text.hpp>

namespace jetperf::store {

namespace {

using lock_t = std::lock_guard<std::recursive_mutex>;

nlohmann::json parsed(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() ? nlohmann::json::object() : j;
}

trace_attachment row_of(statement& st, bool with_energy) {
  trace_attachment a;
  a.job_id = st.column_int(0);
  a.n = st.column_int(1);
  a.file = st.column_text(2);
  a.bytes = st.column_int(3);
  a.uploaded_ns = st.column_int(4);
  a.alignment = parsed(st.column_text(5));
  if (with_energy) a.energy = parsed(st.column_text(6));
  return a;
}

}  // namespace

std::int64_t trace_attachment_store::add(const trace_attachment& a, const attachment_limits& limits) {
  std::int64_t n = 0;
  db_.transaction([&] {
    if (count(a.job_id) >= limits.max_per_job)
      throw conflict("job " + std::to_string(a.job_id) + " has " + std::to_string(limits.max_per_job) +
                         " trace attachments already, the most one job may have",
                     "id");
    if (total_bytes() + a.bytes > limits.max_total_bytes)
      throw conflict("stored trace attachments would pass " + std::to_string(limits.max_total_bytes >> 20) +
                         " MiB (max_trace_disk_mb)",
                     "body");
    statement next(db_.handle(), "SELECT COALESCE(MAX(n), 0) + 1 FROM trace_attachments WHERE job_id = ?");
    next.bind(1, a.job_id);
    next.step();
    n = next.column_int(0);
    statement st(db_.handle(),
                 "INSERT INTO trace_attachments (job_id, n, file, bytes, uploaded_ns, alignment_json, energy_json) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, a.job_id).bind(2, n).bind(3, a.file).bind(4, a.bytes).bind(5, a.uploaded_ns);
    st.bind(6, detail::json_text(a.alignment)).bind(7, detail::json_text(a.energy));
    st.run();
  });
  return n;
}

std::vector<trace_attachment> trace_attachment_store::list(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "SELECT job_id, n, file, bytes, uploaded_ns, alignment_json FROM trace_attachments WHERE job_id = ? "
               "ORDER BY n");
  st.bind(1, job_id);
  std::vector<trace_attachment> out;
  while (st.step()) out.push_back(row_of(st, false));
  return out;
}

std::optional<trace_attachment> trace_attachment_store::get(std::int64_t job_id, std::int64_t n) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "SELECT job_id, n, file, bytes, uploaded_ns, alignment_json, energy_json FROM trace_attachments "
               "WHERE job_id = ? AND n = ?");
  st.bind(1, job_id).bind(2, n);
  if (!st.step()) return std::nullopt;
  return row_of(st, true);
}

std::int64_t trace_attachment_store::count(std::int64_t job_id) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT COUNT(*) FROM trace_attachments WHERE job_id = ?");
  st.bind(1, job_id);
  st.step();
  return st.column_int(0);
}

std::int64_t trace_attachment_store::total_bytes() const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT COALESCE(SUM(bytes), 0) FROM trace_attachments");
  st.step();
  return st.column_int(0);
}

}  // namespace jetperf::store
