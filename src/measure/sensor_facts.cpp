#include <jetperf/measure/sensor_facts.hpp>

namespace jetperf::measure {

record sensor_facts::to_record() const {
  const auto known = [](double v) { return v > 0 ? cell(v) : cell(); };
  return record{{"period_s", known(period_s)},
                {"window_s", known(window_s)},
                {"delay_s", delay_s},
                {"period_source", period_source.empty() ? cell() : cell(period_source)},
                {"window_source", window_source.empty() ? cell() : cell(window_source)},
                {"delay_source", delay_source.empty() ? cell() : cell(delay_source)},
                {"card_job", card_job_id ? cell(*card_job_id) : cell()}};
}

}  // namespace jetperf::measure
