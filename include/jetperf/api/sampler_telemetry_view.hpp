#pragma once
// The real sampler as a telemetry_view, for the daemon.
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/telemetry/sampler.hpp>

namespace jetperf::api {

class sampler_telemetry_view final : public telemetry_view {
 public:
  /// The sampler must outlive the view.
  explicit sampler_telemetry_view(const telemetry::sampler& sampler) : sampler_(sampler) {}

  std::vector<telemetry::channel_info> channels() const override { return sampler_.channels(); }
  /// Values from sampler::latest(); times from the newest sample of each channel in the ring
  /// buffer's recent window (the sampler keeps no per-channel time of its own).
  std::vector<channel_reading> latest() const override;
  std::optional<int> total_power_channel() const override { return sampler_.total_power_channel(); }
  telemetry::sampler_health health() const override { return sampler_.health(); }
  telemetry::energy_totals energy() const override { return sampler_.energy(); }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    return sampler_.window(from_ns, to_ns);
  }

 private:
  const telemetry::sampler& sampler_;
};

}  // namespace jetperf::api
