#pragma once
// What a point may use while it is measured: the job's cancel flag, the board, its telemetry,
// what the board's numbers stand for, the clock it runs on, and sinks for its timeline spans
// and its events. The job
// runner (jobs/) fills one per point; protocols and kinds read it. It names no store or job type:
// the runner turns a span into a stored one.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include <jetperf/common/cell.hpp>
#include <jetperf/measure/clock.hpp>
#include <jetperf/measure/sensor_facts.hpp>
#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/platform/board_settings.hpp>
#include <jetperf/platform/cpu_usage.hpp>
#include <jetperf/platform/workload_processes.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

/// A span of one point on a track of the job's timeline (CLOCK_MONOTONIC; an instant when end == start).
struct timeline_span {
  std::int64_t point_index = 0;
  std::string track;  ///< "settings", "idle", "warmup", "runs", "phases", "markers", "layers", "ops", "kernels"
  std::string name;
  std::int64_t t_start_ns = 0;
  std::int64_t t_end_ns = 0;
  record args;
};

/// What a point may use while it runs. Pointers may be null (no board control, no telemetry).
struct point_context {
  std::int64_t job_id = 0;
  std::int64_t index = 0;
  const std::atomic<bool>* cancel = nullptr;  ///< poll at safe points; throw nothing, return early
  platform::board_settings* board = nullptr;
  telemetry::sample_source* telemetry = nullptr;
  /// What the board's numbers stand for; null on a real board (nothing to flag).
  const platform::board_fidelity* fidelity = nullptr;
  /// Told of processes the point starts (a command job's program); null when nobody asks.
  platform::workload_processes* processes = nullptr;
  /// How busy the workload's cores were and how much of it was the daemon: a window's
  /// contention (contention.hpp); null: not measured.
  const platform::cpu_usage* cpu_usage = nullptr;
  /// Emits a job event (type, data), e.g. "log"; stored and streamed.
  std::function<void(const std::string&, const record&)> event;
  /// Keeps a span on the job's timeline (stored with the point); null: nothing is kept.
  std::function<void(timeline_span)> timeline;
  /// The clock the point's protocol runs on; null: CLOCK_MONOTONIC (a test's virtual clock else).
  measure::clock* time = nullptr;
  /// The board's sensor cards (measure/sensor_facts.hpp); null: none known.
  const sensor_card_book* sensor_cards = nullptr;

  bool cancelled() const { return cancel && cancel->load(); }
  measure::clock& clock() const { return time ? *time : monotonic_clock(); }
  /// A span of this point on `track` (an instant when end == start).
  void record(const std::string& track, const std::string& name, std::int64_t start_ns, std::int64_t end_ns,
              record args = {}) const {
    if (timeline) timeline({index, track, name, start_ns, end_ns, std::move(args)});
  }
};

}  // namespace jetperf::measure
