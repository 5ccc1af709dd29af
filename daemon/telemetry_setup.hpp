#pragma once
// The sampler of the selected board and its persistence: full-rate samples stored with the
// running job, decimated history (job_id 0) otherwise, pruned to the retention window.
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include <jetperf/store/sample_store.hpp>
#include <jetperf/telemetry/sample_archive.hpp>
#include <jetperf/telemetry/sampler.hpp>

#include "board_setup.hpp"
#include "daemon_config.hpp"

namespace jetperf::daemon {

/// Builds the board's sensors (rails, thermal zones, clocks and GPU load, CPU utilisation; NVML
/// on a discrete GPU; RAPL on an x86 host). Takes the NVML sensor out of `board`. Never empty:
/// CPU utilisation is always there.
/// The board's sensors; `update_period_s` (when given) receives how often its power readings
/// really change: the INA3221s' update_interval, tegrastats' interval, or nullopt.
std::vector<std::unique_ptr<telemetry::sensor>> make_sensors(board_selection& board,
                                                             std::optional<double>* update_period_s = nullptr);

/// Writes the sampler's batches into the sample store: channel indexes are mapped to
/// sample_store ids once, non-finite values are dropped, history is pruned now and then. Reads a
/// job's samples back for the sampler's windows longer than its ring (telemetry::sample_archive).
class sample_persister final : public telemetry::sample_archive {
 public:
  sample_persister(store::sample_store& store, const std::vector<telemetry::channel_info>& channels,
                   std::int64_t retention_ns);
  /// The sampler's sink; never throws (a failed batch is logged and dropped).
  void operator()(std::int64_t job_id, const std::vector<telemetry::sample>& batch);
  std::uint64_t stored() const;

  std::vector<telemetry::sample> read(std::int64_t job_id, std::int64_t from_ns, std::int64_t to_ns) const override;
  std::int64_t lost_until_ns(std::int64_t job_id) const override;

 private:
  store::sample_store& store_;
  std::vector<std::int64_t> ids_;
  std::unordered_map<std::int64_t, int> index_of_;  ///< store channel id -> sampler channel index
  std::map<std::int64_t, std::int64_t> lost_until_;  ///< per job: newest sample of a batch not stored
  std::int64_t retention_ns_;
  mutable std::mutex mutex_;
  std::int64_t last_prune_ns_ = std::numeric_limits<std::int64_t>::min() / 2;  // prune on the first batch
  std::uint64_t stored_ = 0;
  std::uint64_t failures_ = 0;
};

/// The sampler's tick period and history decimation from the configuration; the sensors' real
/// update period is `sensor_update_s` when they report one (never shorter than the tick).
telemetry::sampler_config sampler_config_of(const daemon_config& config,
                                            std::optional<double> sensor_update_s = std::nullopt);


}  // namespace jetperf::daemon
