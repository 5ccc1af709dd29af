#include <jetperf/telemetry/tegrastats_sensor.hpp>

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/tegrastats/tegrastats_parser.hpp>

namespace jetperf::telemetry {

tegrastats_sensor::tegrastats_sensor(const std::string& program, int interval_ms,
                                     std::chrono::milliseconds first_line_timeout) {
  if (interval_ms <= 0) throw validation_error("interval_ms", "tegrastats interval must be positive");
  process_ = std::make_unique<platform::line_process>(
      std::vector<std::string>{program, "--interval", std::to_string(interval_ms)});
  std::int64_t deadline = monotonic_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(first_line_timeout).count();
  std::string line, error;
  while (!mapping_) {
    std::int64_t left_ms = (deadline - monotonic_ns()) / 1'000'000;
    if (left_ms <= 0 || !process_->read_line(line, std::chrono::milliseconds(left_ms))) {
      throw unavailable("tegrastats (" + program + ") printed no parseable line");
    }
    tegrastats_record r;
    if (!try_parse_tegrastats_line(line, r, error)) {
      ++errors_;
      spdlog::warn("telemetry: tegrastats line not parsed: {}", error);
      continue;
    }
    ++lines_;
    note_unparsed(r);
    mapping_ = std::make_unique<tegrastats_channels>(r);
    values_.assign(mapping_->channels().size(), std::nan(""));
    mapping_->values(r, values_.data());
    fresh_ = true;
  }
  thread_ = std::thread([this] {
    name_this_thread("jp-tegrastats");
    reader();
  });
}

tegrastats_sensor::~tegrastats_sensor() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  process_.reset();
}

void tegrastats_sensor::reader() {
  std::string line, error;
  std::vector<double> v(values_.size());
  tegrastats_record r;
  while (!stop_) {
    std::int64_t before = monotonic_ns();
    if (!process_->read_line(line, std::chrono::milliseconds(100))) {
      if (!process_->running()) break;
      // End of output with the child not yet reaped: do not spin.
      if (monotonic_ns() - before < 10'000'000) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    if (!try_parse_tegrastats_line(line, r, error)) {
      // Counted and logged, never silently dropped.
      ++errors_;
      spdlog::warn("telemetry: tegrastats line not parsed: {}", error);
      continue;
    }
    ++lines_;
    if (!r.unparsed.empty()) note_unparsed(r);
    mapping_->values(r, v.data());
    std::lock_guard<std::mutex> lock(mutex_);
    values_ = v;
    fresh_ = true;
  }
}

void tegrastats_sensor::note_unparsed(const tegrastats_record& r) {
  unparsed_ += r.unparsed.size();
  for (const auto& field : r.unparsed) {
    const std::uint64_t untracked_before = unknown_names_.untracked();
    if (unknown_names_.first_time(tegrastats_token_name(field))) {
      // Once per name, not per line: tegrastats prints the same new field at every interval.
      spdlog::warn("telemetry: tegrastats field not understood, kept unparsed: '{}' (logged once per name)", field);
    } else if (untracked_before == 0 && unknown_names_.untracked() == 1) {
      spdlog::warn("telemetry: more than {} distinct unknown tegrastats fields; further ones are counted, not logged",
                   tegrastats_unknown_tokens::k_default_capacity);
    }
  }
}

void tegrastats_sensor::read(std::int64_t, double* values) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!fresh_) {
    std::fill(values, values + values_.size(), std::nan(""));
    return;
  }
  std::copy(values_.begin(), values_.end(), values);
  fresh_ = false;
}

}  // namespace jetperf::telemetry
