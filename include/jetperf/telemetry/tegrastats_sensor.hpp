#pragma once
// tegrastats as a sensor, for boards where the rails cannot be read directly: runs the configured
// program with --interval through platform::line_process, parses each line on a reader thread,
// and hands the newest line to the sampler once (later ticks get NaN until the next line).
// Fields a newer tegrastats prints that the parser does not know are counted, and each new field
// name is logged once (at most tegrastats_unknown_tokens::k_default_capacity names).
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <jetperf/platform/subprocess.hpp>
#include <jetperf/tegrastats/tegrastats_record.hpp>
#include <jetperf/tegrastats/tegrastats_unknown_tokens.hpp>
#include <jetperf/telemetry/sensor.hpp>
#include <jetperf/telemetry/tegrastats_channels.hpp>

namespace jetperf::telemetry {

class tegrastats_sensor : public sensor {
 public:
  /// Starts `program --interval interval_ms` and waits for its first parseable line (the channel
  /// layout) up to `first_line_timeout`. Throws unavailable when none comes, platform_error when
  /// the program cannot start.
  tegrastats_sensor(const std::string& program, int interval_ms,
                    std::chrono::milliseconds first_line_timeout = std::chrono::seconds(5));
  ~tegrastats_sensor() override;

  std::vector<channel_info> channels() const override { return mapping_->channels(); }
  void read(std::int64_t t_ns, double* values) override;
  std::optional<int> total_power_channel() const override { return mapping_->total_power_channel(); }
  std::uint64_t lines() const { return lines_.load(); }
  /// Lines with no readable field at all (dropped).
  std::uint64_t parse_errors() const { return errors_.load(); }
  /// Fields left unparsed in lines that were used (record.unparsed entries).
  std::uint64_t unparsed_fields() const { return unparsed_.load(); }

 private:
  void reader();
  void note_unparsed(const tegrastats_record& r);
  std::unique_ptr<platform::line_process> process_;
  std::unique_ptr<tegrastats_channels> mapping_;
  std::mutex mutex_;
  std::vector<double> values_;
  bool fresh_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> lines_{0};
  std::atomic<std::uint64_t> errors_{0};
  std::atomic<std::uint64_t> unparsed_{0};
  tegrastats_unknown_tokens unknown_names_;  ///< touched by the constructor, then the reader only
  std::thread thread_;
};

}  // namespace jetperf::telemetry
