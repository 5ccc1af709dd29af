#include <jetperf/measure/point_protocol.hpp>

#include <jetperf/measure/protocols/point.hpp>

namespace jetperf::measure {

point_measurement run_point(measure::point_context& ctx, const platform::board_setting& setting, const point_plan& plan,
                            idle_power_cache& idle) {
  return point_protocol(ctx, setting, plan, idle)();
}

}  // namespace jetperf::measure
