#include <jetperf/kinds/sensor/sensor_kind.hpp>

#include <cstdio>

#include <jetperf/common/spec_table.hpp>
#include <jetperf/measure/square_wave_load.hpp>

namespace jetperf::kinds {
namespace {

// The card must fit its minute on an idle board (issue 38): the wave, the settings and the
// analysis. The wave gets most of it.
constexpr double k_max_wave_s = 50;

const spec_table<sensor_spec>& sensor_table() {
  static const spec_table<sensor_spec> table({
      // Each half must hold several updates of the slowest sensor, and its later half settled levels.
      {{"half_period_s", spec_type::number, 0.1, "length of each busy and idle half of the square-wave load", 0.02, 5, {}},
       &sensor_spec::half_period_s},
      {{"cycles", spec_type::integer, 15, "busy/idle cycles (two edges each)", 2, 500, {}}, &sensor_spec::cycles},
      {{"threads", spec_type::integer, 1, "CPU threads busy in each busy half", 1, 64, {}}, &sensor_spec::threads},
  });
  return table;
}

}  // namespace

const std::vector<spec_field>& sensor_spec_fields() { return sensor_table().declarations(); }

sensor_spec sensor_spec::parse(const record& spec, const platform::board_offer&) {
  reject_unknown_fields(spec, sensor_spec_fields());
  sensor_spec s;
  sensor_table().parse(spec, s);
  if (s.wave_s() > k_max_wave_s) {
    char text[160];
    std::snprintf(text, sizeof text, "the square wave would take %.1f s (cycles x 2 x half_period_s); at most %.0f s",
                  s.wave_s(), k_max_wave_s);
    throw validation_error("spec.cycles", text);
  }
  return s;
}

record sensor_spec::to_record() const {
  record out;
  sensor_table().put(*this, out);
  return out;
}

double sensor_spec::wave_s() const {
  return measure::square_wave_plan{}.lead_s + static_cast<double>(2 * cycles + 1) * half_period_s;
}

std::vector<sensor_point> expand(const sensor_spec&) { return {sensor_point{}}; }

}  // namespace jetperf::kinds
