#include <jetperf/measure/point_sensor_period.hpp>

#include <algorithm>

#include <jetperf/stats/sensor_updates.hpp>
#include <jetperf/platform/sensor_averaging.hpp>

namespace jetperf::measure {

namespace {

// The polls the period is found from when nothing states it: a few seconds, a hundred updates of
// a 20 ms sensor.
constexpr std::int64_t k_fit_span_ns = 3'000'000'000;

}  // namespace

sensor_facts point_sensor_period(const point_context& ctx, std::optional<double> stated_s) {
  sensor_facts f;
  const auto* source = ctx.telemetry;
  if (stated_s && *stated_s > 0) {
    f.period_s = *stated_s;
    f.period_source = "nominal";
    return f;
  }
  if (!source) return f;
  if (source->update_period_stated()) {
    f.period_s = source->update_period_s();
    f.period_source = "nominal";
    return f;
  }
  const auto total = source->total_power_channel();
  if (!total) return f;
  const auto channel = source->channels().at(static_cast<std::size_t>(*total)).name;
  if (ctx.sensor_cards && ctx.board) {
    const auto averaging = platform::describe_sensor_averaging(ctx.board->sensor_averaging());
    if (const auto card = ctx.sensor_cards->find(channel, averaging, true); card && card->period_s > 0) {
      f.period_s = card->period_s;
      f.period_source = "card";
      f.card_job_id = card->card_job_id;
      return f;
    }
  }
  const auto now = ctx.clock().now_ns();
  std::vector<std::pair<std::int64_t, double>> polls;
  for (const auto& s : source->window(std::max(now - k_fit_span_ns, source->complete_since_ns()), now))
    if (s.channel == *total && (polls.empty() || s.t_ns > polls.back().first)) polls.emplace_back(s.t_ns, s.value);
  const auto fit = stats::fit_sensor_updates(polls, 0);
  if (fit.unusable.empty() && fit.period_s > 0) {
    f.period_s = fit.period_s;
    f.period_source = "fit";
  }
  return f;
}

}  // namespace jetperf::measure
