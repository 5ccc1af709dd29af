#pragma once
// Where a job's samples can still be read after they left the sampler's in-memory ring: the
// store, which the sampler's sink fills at full rate while a job is attached. A measurement
// window longer than the ring reads its start from here instead of averaging only its tail.
#include <cstdint>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::telemetry {

class sample_archive {
 public:
  virtual ~sample_archive() = default;
  /// The samples of `job_id` with from_ns <= t_ns <= to_ns that were stored, ordered by time,
  /// with the sampler's channel indexes.
  virtual std::vector<sample> read(std::int64_t job_id, std::int64_t from_ns, std::int64_t to_ns) const = 0;
  /// The time after which every sample of `job_id` handed to the archive was stored: the newest
  /// sample of a batch it lost, INT64_MIN when it lost none.
  virtual std::int64_t lost_until_ns(std::int64_t job_id) const = 0;
};

}  // namespace jetperf::telemetry
