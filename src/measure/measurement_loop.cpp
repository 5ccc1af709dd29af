#include <jetperf/measure/measurement_loop.hpp>

#include <algorithm>
#include <chrono>
#include <limits>

#include <jetperf/stats/rse_projection.hpp>
#include <jetperf/stats/running_stats.hpp>

namespace jetperf::measure {

timed_iteration steady_clock_iteration(std::function<void()> fn) {
  return [fn = std::move(fn)]() {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
  };
}

std::optional<power_summary> measurement_loop::read_power(std::int64_t from_ns, std::int64_t to_ns,
                                                          loop_result* r) const {
  if (!source_) return std::nullopt;
  auto w = read_window_power(*source_, from_ns, to_ns, options_.boundary_s, options_.rse_batches);
  if (r) {
    r->power_window_s = w.window_s;
    r->power_covered_s = w.covered_s;
    r->samples = std::move(w.samples);
  }
  return std::move(w.summary);
}

namespace {

bool lists(const std::vector<std::string>& unmet, const char* what) {
  return std::find(unmet.begin(), unmet.end(), what) != unmet.end();
}

// Stops `d` when the latency's RSE is what holds the window (its time and sample minimums met)
// and its trend says the target is out of reach by max_time_s; `projected` gets the projection.
void stop_when_out_of_reach(const stop_criteria& c, stats::rse_projection& trend, double elapsed_s, double time_rse,
                            stop_decision& d, std::optional<double>& projected) {
  if (d.stop || !c.stop_when_out_of_reach || !c.target_rse_time || c.fixed_duration_s || elapsed_s >= c.max_time_s)
    return;
  if (lists(d.unmet, "min_time") || lists(d.unmet, "min_samples") || !lists(d.unmet, "time_rse")) return;
  trend.add(elapsed_s, time_rse);
  const auto at_max = trend.at(c.max_time_s);
  if (!at_max || !(*at_max > *c.target_rse_time * stats::k_projection_margin)) return;
  d.stop = true;
  d.reason = stop_reason::projected_max_time;
  projected = at_max;
}

}  // namespace

loop_result measurement_loop::run(const timed_iteration& iteration) const {
  const stop_rule rule(options_.stop);
  const bool power_applies = source_ && source_->total_power_channel().has_value() && !options_.stop.fixed_duration_s;
  std::optional<double> power_rse;
  if (power_applies) power_rse = std::numeric_limits<double>::infinity();
  const auto check_period_ns = static_cast<std::int64_t>(options_.power_check_period_s * 1e9);
  std::int64_t last_power_check_ns = std::numeric_limits<std::int64_t>::min() / 2;

  loop_result r;
  stats::running_stats stats;
  stats::rse_projection trend;
  std::int64_t last_trend_ns = std::numeric_limits<std::int64_t>::min() / 2;
  r.ends_ns.reserve(k_timed_runs);
  auto& clock = options_.time ? *options_.time : monotonic_clock();
  r.t_start_ns = clock.now_ns();
  for (;;) {
    if (options_.cancel && options_.cancel->load()) {
      r.cancelled = true;
      r.decision.stop = true;
      r.decision.reason = stop_reason::cancelled;
      break;
    }
    const double t = iteration();
    r.times_s.push_back(t);
    stats.add(t);
    const std::int64_t now = clock.now_ns();
    // The loop reads the clock here anyway: the timeline takes its runs' ends from it, adding
    // nothing to the window.
    if (r.ends_ns.size() < k_timed_runs) r.ends_ns.push_back(now);
    const double elapsed_s = static_cast<double>(now - r.t_start_ns) * 1e-9;
    // The power window is re-read only once everything else is met (or at max_time), and at most
    // once per check period, so the loop stays close to a bare loop of the same call.
    if (power_applies && now - last_power_check_ns >= check_period_ns) {
      const auto pre = rule.evaluate(elapsed_s, stats.count(), stats.rse(), std::nullopt);
      if (pre.stop || elapsed_s >= options_.stop.max_time_s) {
        const auto p = read_power(r.t_start_ns, now, nullptr);
        power_rse = p && p->total_samples ? p->total_rse : std::numeric_limits<double>::infinity();
        last_power_check_ns = now;
      }
    }
    auto d = rule.evaluate(elapsed_s, stats.count(), stats.rse(), power_rse);
    if (now - last_trend_ns >= check_period_ns) {
      stop_when_out_of_reach(options_.stop, trend, elapsed_s, stats.rse(), d, r.projected_rse);
      last_trend_ns = now;
    }
    if (d.stop) {
      r.decision = std::move(d);
      break;
    }
  }
  r.t_end_ns = clock.now_ns();
  r.latency = stats::compute_latency_stats(r.times_s);
  r.power = read_power(r.t_start_ns, r.t_end_ns, &r);
  return r;
}

}  // namespace jetperf::measure
