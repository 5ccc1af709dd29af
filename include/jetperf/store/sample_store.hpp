#pragma once
// Telemetry channels (rail/clock/temperature names and units) and their samples, written in
// batches. Samples carry CLOCK_MONOTONIC ns; job_id 0 means "history" (no job running).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct channel_record {
  std::int64_t id = 0;
  std::string name;    ///< e.g. "rail.VDD_GPU_SOC.power", "clock.gpu", "temp.CPU"
  std::string unit;    ///< "W", "Hz", "kHz", "C", "%"
  std::string source;  ///< provenance: sysfs path, "tegrastats", "nvml", "sim"
};

struct sample_row {
  std::int64_t channel_id = 0;
  std::int64_t t_ns = 0;
  double value = 0;
};

/// Where a page of samples ends: samples are ordered by time, then channel.
struct sample_key {
  std::int64_t t_ns = 0;
  std::int64_t channel_id = 0;
};

struct sample_page {
  std::vector<sample_row> rows;
  /// The last row's key when more samples follow (the next page starts after it).
  std::optional<sample_key> next_after;
};

/// One channel's samples within [t_ns, t_ns + bucket) summarised.
/// (Of a downsampled job: from its seconds' minimums, maximums and counts.)
struct sample_bucket {
  std::int64_t channel_id = 0;
  std::int64_t t_ns = 0;  ///< the bucket's start, a multiple of its length
  double min = 0, max = 0, mean = 0;
  std::int64_t count = 0;
};

class sample_store {
 public:
  explicit sample_store(database& db) : db_(db) {}

  /// Returns the id of the channel, creating it when new (name is unique; a changed unit or source
  /// is updated in place). Throws validation_error("name") for an empty name.
  std::int64_t channel_id(const std::string& name, const std::string& unit, const std::string& source);
  std::vector<channel_record> channels() const;
  std::optional<channel_record> find_channel(const std::string& name) const;

  /// Inserts a batch in one transaction, as one chunk per channel (split above 4096 samples).
  /// Throws validation_error("value") for a non-finite value and store_error for an unknown
  /// channel; either way nothing of the batch is stored.
  void insert(std::int64_t job_id, const std::vector<sample_row>& rows);
  /// Samples of a job (optionally one channel, optionally within [from_ns, to_ns], inclusive), by
  /// time; samples with equal times keep channel order.
  std::vector<sample_row> query(std::int64_t job_id, std::optional<std::int64_t> channel_id = std::nullopt,
                                std::optional<std::int64_t> from_ns = std::nullopt,
                                std::optional<std::int64_t> to_ns = std::nullopt) const;
  /// At most `limit` samples of query()'s, those after `after` (by time, then channel): memory in
  /// proportion to `limit` whatever the job's length, for paging through hours of samples.
  sample_page query_page(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                         std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns,
                         std::optional<sample_key> after, std::size_t limit) const;
  /// The samples of query()'s window summarised per channel and `bucket_ns` interval (min, max,
  /// mean, count), by time then channel; empty buckets are left out. Throws validation_error
  /// ("bucket_ms") when the window would have more than `max_buckets` buckets.
  std::vector<sample_bucket> buckets(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                                     std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns,
                                     std::int64_t bucket_ns, std::size_t max_buckets) const;
  /// Throws the validation_error("bucket_ms") that buckets() would for the same arguments (a
  /// window of more than `max_buckets` buckets, a bucket that is not positive); reads the chunk
  /// index alone, so a caller can refuse before it answers.
  void check_bucket_count(std::int64_t job_id, std::optional<std::int64_t> channel_id,
                          std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns,
                          std::int64_t bucket_ns, std::size_t max_buckets) const;
  /// Mean of a channel's samples of a job within [from_ns, to_ns] (inclusive); nullopt when none.
  /// Reads the stored sums of the chunks inside the window and decodes only the edge chunks.
  std::optional<double> mean(std::int64_t job_id, std::int64_t channel_id, std::int64_t from_ns,
                             std::int64_t to_ns) const;
  /// Deletes history samples (job_id 0) older than `before_ns` (a chunk cut by it keeps its newer
  /// samples); returns how many samples were deleted.
  std::int64_t prune_history(std::int64_t before_ns);

  /// Rewrites a job's full-rate samples as one record per channel and second (the second's start
  /// and its mean; minimum, maximum and count beside it), one transaction per channel, so that
  /// readers see either form whole. Chunks already downsampled are left as they are (a pass cut
  /// short resumes). Returns how many full-rate samples became how many records.
  struct downsampled {
    std::int64_t samples = 0, seconds = 0;
  };
  downsampled downsample_job(std::int64_t job_id, std::int64_t second_ns = 1'000'000'000);
  /// Deletes a job's samples, at most `chunks_per_transaction` chunks per transaction; returns
  /// how many samples (or downsampled records) went.
  std::int64_t drop_job(std::int64_t job_id, std::size_t chunks_per_transaction = 256);

 private:
  database& db_;
};

}  // namespace jetperf::store
