#pragma once
// The full-rate part of the telemetry stream: every sample the view took since the previous
// batch, as the data of one "samples" event. Each batch starts just after the newest sample of
// the one before, so consecutive batches hand over every sample exactly once while the view's
// ring still holds it; a batch over the cap keeps its newest samples and counts the rest in
// "dropped", so a stalled feed catches up at once instead of trailing behind.
#include <cstddef>
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include <jetperf/api/telemetry_view.hpp>

namespace jetperf::api {

/// At most this many samples per batch. At ~22 bytes a sample (the simulated AGX Orin's), a full
/// batch is ~110 kB, within half a stream's default buffer (256 KiB), which drops a frame larger
/// than itself whole. A normal batch is far smaller: 100 ms of the AGX Orin's ~24 samples a tick
/// at 100 Hz is 240 samples (2,400 at 1 kHz).
inline constexpr std::size_t k_samples_batch_cap = 5000;

class sample_batcher {
 public:
  /// `first_lookback_ns`: how far back the first batch (or the first after reset()) reaches.
  explicit sample_batcher(std::int64_t first_lookback_ns, std::size_t cap = k_samples_batch_cap)
      : first_lookback_ns_(first_lookback_ns), cap_(cap) {}

  /// {"channels": [name, ...], "t0_ns": N, "samples": [[dt_us, channel, value], ...], "dropped": D}
  /// with every sample after the previous batch's newest; t0_ns is the first sample's time and
  /// dt_us each sample's offset from it in whole microseconds. Empty "samples" (t0_ns 0) when
  /// nothing new was taken.
  nlohmann::json next(const telemetry_view& view, std::int64_t now_ns);
  /// Forgets where the last batch ended (nobody watched meanwhile): the next one starts afresh.
  void reset() { last_t_ns_.reset(); }

 private:
  std::int64_t first_lookback_ns_;
  std::size_t cap_;
  std::optional<std::int64_t> last_t_ns_;
};

}  // namespace jetperf::api
