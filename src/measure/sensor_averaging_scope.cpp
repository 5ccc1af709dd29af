#include <jetperf/measure/sensor_averaging_scope.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>

namespace jetperf::measure {

cell sensor_samples_request::to_cell() const {
  switch (mode) {
    case how::automatic: return "auto";
    case how::count: return count;
    case how::as_is: break;
  }
  return "as_is";
}

sensor_samples_request sensor_samples_request::parse(const cell& value, const std::vector<std::int64_t>* offered) {
  const std::string field = "spec.sensor_samples";
  sensor_samples_request r;
  if (value.is_string()) {
    const auto& text = value.as_string();
    if (text == "as_is") return r;
    if (text != "auto") throw validation_error(field, "sensor_samples must be \"auto\", \"as_is\" or an averaging count");
    r.mode = how::automatic;
    return r;
  }
  // A count, read as every integer field is (4.0 is 4; 4.5, true and [4] are not counts).
  r.mode = how::count;
  r.count = integer_field(record{{"sensor_samples", value}}, "sensor_samples", 1, 1 << 20, 0);
  if (!offered) return r;
  if (offered->empty())
    throw validation_error(field, "this board's power sensors have no averaging count to set (no INA3221 hwmon "
                                  "`samples` file); use \"auto\" or \"as_is\"");
  platform::check_sensor_samples(r.count, *offered, field);
  return r;
}

std::optional<std::int64_t> auto_sensor_samples(const std::vector<platform::sensor_chip_averaging>& chips,
                                                const std::vector<std::int64_t>& offered, double min_update_s) {
  // The slowest chip's time per sample: every chip's window must be one the sampler can place.
  const auto per_sample_ms = platform::slowest_ms_per_sample(chips);
  if (!per_sample_ms) return std::nullopt;
  for (auto n : offered)  // ascending
    if (*per_sample_ms * static_cast<double>(n) >= min_update_s * 1e3) return n;
  return offered.empty() ? std::nullopt : std::optional<std::int64_t>(offered.back());
}

namespace {

// What the slowest chip's update_interval becomes at `samples`: its time per sample now times the
// count (ms, rounded as the driver rounds); nullopt when no chip says its interval.
std::optional<std::int64_t> expected_interval_ms(const std::vector<platform::sensor_chip_averaging>& chips,
                                                 std::int64_t samples) {
  const auto per_sample_ms = platform::slowest_ms_per_sample(chips);
  if (!per_sample_ms) return std::nullopt;
  return std::llround(*per_sample_ms * static_cast<double>(samples));
}

// Whether every chip that says an interval says about `expect_ms` (the driver rounds to a
// millisecond, and the time per sample above comes from a rounded interval: a quarter, or 1 ms).
bool says_interval(const std::vector<platform::sensor_chip_averaging>& chips, std::int64_t expect_ms) {
  const double slack = std::max(1.0, 0.25 * static_cast<double>(expect_ms));
  return std::all_of(chips.begin(), chips.end(), [&](const auto& c) {
    return !c.update_interval_ms || std::fabs(static_cast<double>(*c.update_interval_ms - expect_ms)) <= slack;
  });
}

}  // namespace

sensor_averaging_scope::sensor_averaging_scope(platform::board_settings* board, const sensor_samples_request& request,
                                               telemetry::sample_source* telemetry)
    : board_(board), telemetry_(telemetry), tick_s_(telemetry ? telemetry->tick_period_s() : 0.0) {
  if (!board_ || request.mode == sensor_samples_request::how::as_is) return;
  before_ = board_->sensor_averaging();
  now_ = before_;
  if (before_.empty()) {
    // Nothing to set (L4T r32's ina3221x, an INA238): auto leaves the window as it is, but reads
    // it as fast as the sampler may, since no driver says how often it updates and a window is
    // placed only from polls several times faster than it.
    if (request.mode == sensor_samples_request::how::automatic && telemetry_) {
      const double fastest_s = telemetry_->fastest_tick_period_s();
      if (fastest_s > 0 && fastest_s < tick_s_) {
        tick_s_ = telemetry_->set_job_tick_period_s(fastest_s);
        tick_changed_ = true;
      }
    }
    return;
  }
  std::optional<std::int64_t> want = request.count;
  if (request.mode == sensor_samples_request::how::automatic) {
    const double fastest_s = telemetry_ ? telemetry_->fastest_tick_period_s() : 0.0;
    if (!(fastest_s > 0)) return;
    want = auto_sensor_samples(before_, board_->offered().sensor_samples, k_auto_polls_per_update * fastest_s);
    // A sampler too slow for a shorter window: the board's own is kept, never lengthened.
    const auto fewest = std::min_element(before_.begin(), before_.end(),
                                         [](const auto& a, const auto& b) { return a.samples < b.samples; });
    if (want && *want > fewest->samples) return;
  }
  if (!want) return;
  const bool same = std::all_of(before_.begin(), before_.end(), [&](const auto& c) { return c.samples == *want; });
  if (same) return;
  const auto old_s = platform::slowest_update_interval_s(before_).value_or(0.1);
  const auto expect_ms = expected_interval_ms(before_, *want);
  // Polled fast enough to place the new window's updates from its first one (the sampler keeps
  // its own period where that is already fast enough).
  if (telemetry_ && expect_ms && *expect_ms > 0) {
    const double wanted_s = static_cast<double>(*expect_ms) * 1e-3 / k_auto_polls_per_update;
    if (wanted_s < tick_s_) {
      tick_s_ = telemetry_->set_job_tick_period_s(wanted_s);
      tick_changed_ = true;
    }
  }
  try {
    now_ = board_->set_sensor_samples(*want);
  } catch (...) {
    if (tick_changed_) telemetry_->set_job_tick_period_s(0);
    throw;
  }
  changed_ = true;
  // The hwmon driver computes update_interval from the chip's configuration, so it says the new
  // one at once; a simulated chip says it at its next update, which a busy host delays. The
  // point's sensor model is that interval, so wait until the chips say what the new count gives
  // (1 s at most; after that the driver's word is taken, with a warning).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (expect_ms && !says_interval(now_, *expect_ms)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      spdlog::warn("the power sensors say an update interval of {} ms at {} samples; {} ms was expected",
                   now_.front().update_interval_ms.value_or(-1), *want, *expect_ms);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (auto again = board_->sensor_averaging(); !again.empty()) now_ = std::move(again);
  }
  // A conversion under way when the count changed still ends at the old interval; the one after
  // it is the first of the new count.
  const auto new_s = platform::slowest_update_interval_s(now_).value_or(old_s);
  std::this_thread::sleep_for(std::chrono::duration<double>(old_s + new_s));
  since_ns_ = monotonic_ns();
}

sensor_averaging_scope::~sensor_averaging_scope() {
  if (changed_) {
    try {
      board_->restore_sensor_averaging(before_);
      // What comes next (the next point, the job's provenance) reads the chips as they were:
      // a simulated chip says its interval again at its next update (1 s at most, as above).
      if (const auto old_s = platform::slowest_update_interval_s(before_)) {
        const auto old_ms = std::llround(*old_s * 1e3);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        while (!says_interval(board_->sensor_averaging(), old_ms) && std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    } catch (const std::exception& e) {
      spdlog::error("putting the power sensors' averaging back failed ({}); the job's end restores it", e.what());
    }
  }
  if (tick_changed_) telemetry_->set_job_tick_period_s(0);
}

std::optional<double> sensor_averaging_scope::update_interval_s() const {
  return platform::slowest_update_interval_s(now_);
}

std::optional<std::int64_t> sensor_averaging_scope::samples() const {
  if (now_.empty()) return std::nullopt;
  return now_.front().samples;
}

}  // namespace jetperf::measure
