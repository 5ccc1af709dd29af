#include <jetperf/store/cost_store.hpp>

namespace jetperf::store {

namespace {
using lock_t = std::lock_guard<std::recursive_mutex>;
}  // namespace

void cost_store::add_run(const std::string& scope, const std::string& kind, const std::string& cls,
                         run_cost_sample s) {
  db_.transaction([&] {
    statement st(db_.handle(), "INSERT INTO run_costs (scope, kind, class, work, run_s, cv) VALUES (?, ?, ?, ?, ?, ?)");
    st.bind(1, scope).bind(2, kind).bind(3, cls).bind(4, s.work).bind(5, s.run_s).bind(6, s.cv);
    st.run();
    statement old(db_.handle(),
                  "DELETE FROM run_costs WHERE scope = ? AND kind = ? AND class = ? AND id <= "
                  "(SELECT id FROM run_costs WHERE scope = ? AND kind = ? AND class = ? ORDER BY id DESC LIMIT 1 OFFSET ?)");
    old.bind(1, scope).bind(2, kind).bind(3, cls).bind(4, scope).bind(5, kind).bind(6, cls).bind(7, k_kept_per_class);
    old.run();
  });
}

std::vector<run_cost_sample> cost_store::runs(const std::string& scope, const std::string& kind,
                                              const std::string& cls) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(), "SELECT work, run_s, cv FROM run_costs WHERE scope = ? AND kind = ? AND class = ? ORDER BY id");
  st.bind(1, scope).bind(2, kind).bind(3, cls);
  std::vector<run_cost_sample> out;
  while (st.step()) out.push_back({st.column_double(0), st.column_double(1), st.column_double(2)});
  return out;
}

void cost_store::add_calibration(const std::string& scope, const std::string& kind, const cost_calibration& job) {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "INSERT INTO cost_calibration (scope, kind, predicted_s, actual_s, windows, window_points, jobs) "
               "VALUES (?, ?, ?, ?, ?, ?, 1) "
               "ON CONFLICT (scope, kind) DO UPDATE SET predicted_s = predicted_s / 2 + excluded.predicted_s, "
               "actual_s = actual_s / 2 + excluded.actual_s, windows = windows / 2 + excluded.windows, "
               "window_points = window_points / 2 + excluded.window_points, jobs = jobs + 1");
  st.bind(1, scope).bind(2, kind).bind(3, job.predicted_s).bind(4, job.actual_s).bind(5, job.windows);
  st.bind(6, job.window_points);
  st.run();
}

cost_calibration cost_store::calibration(const std::string& scope, const std::string& kind) const {
  lock_t lock(db_.mutex());
  statement st(db_.handle(),
               "SELECT predicted_s, actual_s, windows, window_points, jobs FROM cost_calibration "
               "WHERE scope = ? AND kind = ?");
  st.bind(1, scope).bind(2, kind);
  if (!st.step()) return {};
  return {st.column_double(0), st.column_double(1), st.column_double(2), st.column_double(3), st.column_int(4)};
}

}  // namespace jetperf::store
