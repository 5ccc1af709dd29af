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
  std::string track;  ///< "points", "windows", "settings", "idle", "warmup", "runs", "phases", "markers", "layers", "ops", "kernels"
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

/// Where a page of spans ends: spans are ordered by start time, then by the order they were added.
struct timeline_key {
  std::int64_t t_start_ns = 0;
  std::int64_t id = 0;  ///< the row's id: the order it was added in
};

struct timeline_page {
  std::vector<timeline_span> spans;
  /// The last span's key when more spans follow (the next page starts after it).
  std::optional<timeline_key> next_after;
};

/// What a query's spans hold, from one pass over them: how many, where they begin and end, and
/// on which tracks.
struct timeline_outline {
  std::int64_t spans = 0;
  std::int64_t first_start_ns = 0;  ///< the earliest start (0 without spans)
  std::int64_t last_end_ns = 0;     ///< the latest end (0 without spans)
  /// Each track once, in the order of its first span in spans()'s order.
  std::vector<std::string> tracks;
};

/// The outline of spans already read, in spans()'s order: what outline() gives for them.
timeline_outline outline_of(const std::vector<timeline_span>& spans);

class timeline_store {
 public:
  explicit timeline_store(database& db) : db_(db) {}
  /// Appends spans in one transaction (store_error when a job does not exist).
  void add(const std::vector<timeline_span>& spans);
  /// Removes a job's spans of points `first_point` and after (a resumed job measures them again;
  /// a point with many spans stores them in parts, so a crash can leave some); the job's own
  /// spans (no point) stay. Returns how many went.
  std::int64_t remove_from_point(std::int64_t job_id, std::int64_t first_point);
  /// Spans matching `q` by start time, at most q.limit of them.
  std::vector<timeline_span> spans(const timeline_query& q) const;
  /// At most `limit` of the spans matching `q` (its limit ignored), those after `after` in
  /// spans()'s order: memory in proportion to `limit` whatever the job's length.
  timeline_page spans_page(const timeline_query& q, std::optional<timeline_key> after, std::size_t limit) const;
  /// How many spans match `q` (its limit ignored).
  std::int64_t count(const timeline_query& q) const;
  /// The outline of the spans matching `q` (its limit ignored), without holding them.
  timeline_outline outline(const timeline_query& q) const;

 private:
  database& db_;
};

}  // namespace jetperf::store
