#pragma once
// Maps tegrastats records onto sampler channels, so that a tegrastats stream feeds the same names as
// direct reads: "rail.NAME" (W), "power.total" (W), "clock.gpu"/"clock.emc"/"clock.cpuN" (Hz),
// "util.gpu"/"util.emc"/"util.cpuN" (%), "temp.NAME" (C), "temp_max.NAME" (C: JetPack 7's
// `name@cur/maxC`, the maximum tegrastats has seen), "clock.<engine>" (Hz, 0 while gated:
// APE, VIC, NVENC0, OFA, ... as platform::engine_clock_name names them).
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <jetperf/tegrastats/tegrastats_record.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::telemetry {

class tegrastats_channels {
 public:
  /// The channel layout comes from the first line; fields missing from it never become channels.
  explicit tegrastats_channels(const tegrastats_record& first);

  const std::vector<channel_info>& channels() const { return channels_; }
  /// Local index of the total power channel: the input rail, or the computed sum of rails.
  std::optional<int> total_power_channel() const { return total_; }
  /// Writes values[i] for every channel (NaN where this record lacks the field).
  void values(const tegrastats_record& r, double* values) const;

 private:
  void add(const std::string& name, const char* unit, channel_kind kind);
  std::vector<channel_info> channels_;
  std::unordered_map<std::string, int> index_;
  std::optional<int> total_;
  bool computed_total_ = false;
};

}  // namespace jetperf::telemetry
