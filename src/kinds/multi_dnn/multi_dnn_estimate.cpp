#include <jetperf/kinds/multi_dnn/multi_dnn_estimate.hpp>

#include <algorithm>

#include <jetperf/kinds/common/point_estimate.hpp>

namespace jetperf::kinds {

namespace {
// An adaptive window's guess: the throughput of a few small networks settles within seconds.
constexpr double k_adaptive_window_s = 3.0;
}  // namespace

std::vector<double> estimate_multi_dnn_points_s(const multi_dnn_spec& spec, const std::vector<multi_dnn_point>& points,
                                                const measure::estimate_context& ctx) {
  // As the kind's run_point and plan_of: the idle baseline lasts max(0.5, min_time_s) within its
  // boundaries, the adaptive window at least min_time_s and the sensor updates it must span.
  common::idle_baseline_estimate idle(std::max(0.5, spec.min_time_s) + 2 * spec.boundary_s);
  const double min_window =
      std::max(spec.min_time_s, 2 * spec.boundary_s + k_multi_dnn_min_sensor_updates * ctx.sensor_update_s);
  const double window =
      spec.fixed() ? spec.window_s : std::max(min_window, std::min(std::max(spec.max_time_s, min_window), k_adaptive_window_s));
  std::vector<double> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back(idle.add(p.setting) + spec.cooldown_s + ctx.window_repeats * window);
  return out;
}

}  // namespace jetperf::kinds
