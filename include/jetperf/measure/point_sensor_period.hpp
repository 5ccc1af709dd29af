#pragma once
// How often the board's power sensor updates, as a point sizes its windows by it and its row
// states it: what the driver states (the point's averaging, or the sampler's stated period);
// where no driver states one (L4T r32's ina3221x), the board's sensor card for the total under
// the sensors' averaging now, else the period its changes over the last seconds of polls show.
#include <optional>

#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/sensor_facts.hpp>

namespace jetperf::measure {

/// The period with its source ("nominal", "card", "fit"; period_s 0 and no source when nothing
/// tells it). `stated_s`: what the point's own averaging says (sensor_averaging_scope), if it
/// changed it.
sensor_facts point_sensor_period(const point_context& ctx, std::optional<double> stated_s);

}  // namespace jetperf::measure
