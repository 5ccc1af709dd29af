#pragma once
// Each job's timeline on CLOCK_MONOTONIC (migrations/0006_timeline.sql): what happened when,
// on named tracks, for the Chrome trace export and for analyses that place power samples
// against what ran (a phase's energy, later an op's).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct timeline_span {
  std::int64_t job_id = 0;
  std::optional<std::int64_t> point_index;  ///< nullopt: the job as a whole
  std::string track;  ///< "points", "windows", "settings", "idle", "warmup", "runs", "phases", "markers"
  std::string name;
  std::int64_t t_start_ns = 0;
  std::int64_t t_end_ns = 0;  ///< = t_start_ns for an instant
  nlohmann::json args = nlohmann::json::object();
};

struct timeline_query {
  std::int64_t job_id = 0;
  std::optional<std::int64_t> from_ns, to_ns;  ///< spans overlapping [from, to]
  std::optional<std::int64_t> point_index;
  std::size_t limit = 1000000;
};

class timeline_store {
 public:
  explicit timeline_store(database& db) : db_(db) {}
  /// Appends spans in one transaction (store_error when a job does not exist).
  void add(const std::vector<timeline_span>& spans);
  /// Spans matching `q` by start time, at most q.limit of them.
  std::vector<timeline_span> spans(const timeline_query& q) const;
  /// How many spans match `q` (its limit ignored).
  std::int64_t count(const timeline_query& q) const;

 private:
  database& db_;
};

}  // namespace jetperf::store
