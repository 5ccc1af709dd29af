#pragma once
// Trace files attached to a job (migrations/0007_trace_attachments.sql): where each lies on disk,
// its size, and the alignment and energy tables computed when it arrived.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct trace_attachment {
  std::int64_t job_id = 0;
  std::int64_t n = 0;  ///< 1, 2, ... within the job
  std::string file;    ///< the daemon's path of the stored trace
  std::int64_t bytes = 0;
  std::int64_t uploaded_ns = 0;  ///< CLOCK_REALTIME
  nlohmann::json alignment = nlohmann::json::object();
  nlohmann::json energy = nlohmann::json::object();  ///< empty in list()
};

/// How many attachments one job may have, and how many bytes all of them together.
struct attachment_limits {
  std::int64_t max_per_job = 8;
  std::int64_t max_total_bytes = std::int64_t{4} << 30;
};

class trace_attachment_store {
 public:
  explicit trace_attachment_store(database& db) : db_(db) {}
  /// Numbers `a` as the job's next attachment and stores it (a.n is ignored); returns its n.
  /// Throws conflict when the job has max_per_job attachments already or the bytes of every
  /// job's attachments would pass max_total_bytes; store_error for an unknown job.
  std::int64_t add(const trace_attachment& a, const attachment_limits& limits);
  /// The job's attachments by n, without their energy tables.
  std::vector<trace_attachment> list(std::int64_t job_id) const;
  std::optional<trace_attachment> get(std::int64_t job_id, std::int64_t n) const;
  /// Attachments of the job, and bytes of every job's.
  std::int64_t count(std::int64_t job_id) const;
  std::int64_t total_bytes() const;

 private:
  database& db_;
};

}  // namespace jetperf::store
