#include <jetperf/kinds/common/point_estimate.hpp>

#include <algorithm>
#include <cmath>

#include <jetperf/measure/point_board.hpp>

namespace jetperf::kinds::common {

std::optional<double> device_clock_hz(const platform::board_setting& s, const std::string& device) {
  if (device == "cpu" && s.cpu_freq_khz) return static_cast<double>(*s.cpu_freq_khz) * 1e3;
  if (device == "cuda" && s.gpu_freq_hz) return static_cast<double>(*s.gpu_freq_hz);
  return std::nullopt;
}

double adaptive_window_s(double min_time_s, double max_time_s, std::size_t min_runs, const measure::run_time& run,
                         std::optional<double> time_rse_target) {
  double runs = static_cast<double>(min_runs);
  if (time_rse_target && *time_rse_target > 0) runs = std::max(runs, std::pow(run.cv / *time_rse_target, 2));
  const double needed = std::max(min_time_s, runs * run.mean_s);
  return std::min(needed, std::max(max_time_s, min_time_s) + run.mean_s);
}

double idle_baseline_estimate::add(const platform::board_setting& point) {
  return seen_.insert(point.label()).second ? seconds_ : 0.0;
}

}  // namespace jetperf::kinds::common
