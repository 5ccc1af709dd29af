#pragma once
// The `sensor` kind: the board's sensor card. On an idle board it makes a square-wave load of its
// own on the CPU (and on the GPU where it has one) and measures, per power channel, the update period, the window each reading
// averages and how late it shows a step (lag), the smallest step, whether a read between updates
// repeats the last value, and the read latency, with the driver's averaging configuration where
// it has one. One point per load, one row per channel; the latest card is the board's (GET /v1/board).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/jobs/workload.hpp>

namespace jetperf::kinds {

struct sensor_spec {
  double half_period_s = 0.1;
  std::int64_t cycles = 15;
  std::int64_t threads = 1;
  /// The square waves, one point each, in order: "cpu" (`threads` spinning threads) and "gpu"
  /// (every SM of device 0 busy).
  std::vector<std::string> loads{"cpu"};

  /// Validates field by field (validation_error "spec.<field>"), that "gpu" has a CUDA device to
  /// load ("spec.loads") and that the card fits its minute ("spec.cycles"). Without `loads`: the
  /// CPU, and the GPU where a CUDA device answers: the board has one (offered.has_cuda_device,
  /// which a simulated board's GPU node sets too) and the CUDA runtime finds it.
  static sensor_spec parse(const record& spec, const platform::board_offer& offered = {});
  /// parse with whether a CUDA device answers given.
  static sensor_spec parse_with(const record& spec, bool cuda_answers);
  /// A spec stored when it was submitted, not checked again (a stored "gpu" stays, whatever the
  /// machine reading it has); one stored before `loads` existed ran the CPU's wave only.
  static sensor_spec stored(const record& normalized);
  record to_record() const;
  /// Seconds the square wave takes: its lead, every half, and one idle half after.
  double wave_s() const;
};

struct sensor_point {
  std::string load = "cpu";
};

const std::vector<spec_field>& sensor_spec_fields();
std::vector<sensor_point> expand(const sensor_spec& spec);

std::unique_ptr<jobs::workload> make_sensor_kind();

}  // namespace jetperf::kinds
