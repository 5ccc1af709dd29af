#include <jetperf/kinds/layers/in_context_power.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/measure/latency_stats.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/sensor_updates.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

// The total power channel's samples, read a slice at a time as the runs go on (the window is
// read once, not once per check).
class total_power_series {
 public:
  total_power_series(const telemetry::sample_source& source, int channel, std::int64_t from_ns)
      : source_(source), channel_(channel), next_ns_(from_ns) {}
  const std::vector<std::pair<std::int64_t, double>>& read_until(std::int64_t to_ns) {
    if (to_ns < next_ns_) return series_;
    for (const auto& s : source_.window(next_ns_, to_ns))
      if (s.channel == channel_ && (series_.empty() || s.t_ns > series_.back().first)) series_.emplace_back(s.t_ns, s.value);
    next_ns_ = to_ns + 1;
    return series_;
  }

 private:
  const telemetry::sample_source& source_;
  int channel_;
  std::int64_t next_ns_;
  std::vector<std::pair<std::int64_t, double>> series_;
};

json sensor_json(const measure::sensor_update_fit& fit) {
  return {{"nominal_period_s", fit.nominal_period_s},
          {"period_s", fit.period_s},
          {"lateness_median_s", fit.lateness_median_s},
          {"lateness_iqr_s", fit.lateness_iqr_s},
          {"changes", fit.changes},
          {"readings", fit.readings.size()}};
}

}  // namespace

in_context_power measure_in_context_power(const jobs::point_context& ctx, workloads::layer_backend& be,
                                          const models::network& net, const std::vector<models::layer>& layers,
                                          std::optional<double> idle_w, const in_context_power_plan& plan) {
  in_context_power out;
  auto& r = out.window;
  const auto kernels = be.op_kernels();
  const telemetry::sample_source* source = ctx.telemetry;
  const auto total = source ? source->total_power_channel() : std::nullopt;
  const double nominal_s = source ? source->update_period_s() : 0.0;
  std::string unresolvable;
  if (!source || !total) unresolvable = "no power sensor";
  else if (!idle_w) unresolvable = "no idle baseline to subtract";
  else if (!(nominal_s > 0)) unresolvable = "the sensor's update period is unknown";

  const auto window_ns = static_cast<std::int64_t>(nominal_s * 1e9);
  std::optional<measure::layer_power_estimator> est;
  if (unresolvable.empty()) est.emplace(layers.size(), measure::layer_estimate_options{window_ns, *idle_w, plan.target_rel});
  std::optional<total_power_series> series;
  std::vector<std::vector<double>> times(layers.size());
  std::mt19937_64 rng(static_cast<std::uint64_t>(monotonic_ns()));
  bool jitter = false;
  std::size_t spans_kept = 0, checks = 0, merges = 0;
  measure::sensor_update_fit fit;
  measure::layer_power_result res;
  std::string stop = "max_time";

  const auto settled_except_hopeless = [&](const measure::layer_power_result& e, double elapsed_s) {
    // Intervals from a handful of readings per unknown are themselves too uncertain to act on.
    if (!e.unresolvable.empty() || e.readings < 5 * e.units.size()) return false;
    for (const auto& u : e.units) {
      const double rel = u.rel_half_width();
      if (rel <= plan.target_rel) continue;
      if (!std::isfinite(rel) || elapsed_s * (rel / plan.target_rel) * (rel / plan.target_rel) <= plan.max_time_s)
        return false;
    }
    return true;
  };
  // Refits the sensor's update times over everything read so far, then solves (merging first
  // what cannot be resolved in the time left).
  const auto solve = [&](std::int64_t until_ns, double elapsed_s) {
    // A fit of a few hundred updates that explains nearly every change is a reliable start for
    // the next; an early one (a few dozen updates) may be an alias, and is redone from scratch.
    const bool reliable = fit.period_s > 0 && fit.changes >= 200 && fit.extra_changes * 10 <= fit.changes;
    fit = measure::fit_sensor_updates(series->read_until(until_ns), nominal_s, reliable ? &fit : nullptr);
    est->set_readings(fit.readings, static_cast<std::int64_t>(fit.period_s * 1e9));
    merges += est->merge_unresolvable(elapsed_s, plan.max_time_s, &res);
    ++checks;
  };

  r.t_start_ns = monotonic_ns();
  if (est) series.emplace(*source, *total, r.t_start_ns - window_ns);
  const auto check_ns = static_cast<std::int64_t>(plan.check_period_s * 1e9);
  auto next_check = r.t_start_ns + check_ns;
  for (std::size_t run = 0;; ++run) {
    if (ctx.cancelled()) {
      r.cancelled = true;
      stop = "cancelled";
      break;
    }
    if (jitter) {
      std::uniform_int_distribution<std::int64_t> pause(0, window_ns);
      std::this_thread::sleep_for(std::chrono::nanoseconds(pause(rng)));
    }
    const auto ops = be.timed_run_ops();
    if (ops.empty()) {
      out.estimator["unsupported"] = be.name() + " cannot time its ops one by one (in_context runs on the CPU backends)";
      return out;
    }
    const auto spans = layer_spans_of_run(ops, layers);
    const auto now = monotonic_ns();
    r.times_s.push_back(static_cast<double>(ops.back().end_ns - ops.front().start_ns) * 1e-9);
    if (r.ends_ns.size() < measure::k_timed_runs) r.ends_ns.push_back(now);
    for (const auto& s : spans) times[static_cast<std::size_t>(s.layer)].push_back(static_cast<double>(s.end_ns - s.start_ns) * 1e-9);
    if (run < k_in_context_traced_runs) {
      record_run_ops(ctx, net, kernels, ops, run);
      for (const auto& s : spans)
        ctx.record("layers", layers[static_cast<std::size_t>(s.layer)].name, s.start_ns, s.end_ns,
                   {{"layer_index", s.layer}, {"run", run}});
    }
    if (est) {
      if (spans_kept + spans.size() > plan.max_spans) {
        stop = "span_limit";
        break;
      }
      est->add_run(spans);
      spans_kept += spans.size();
    }
    const double elapsed_s = static_cast<double>(now - r.t_start_ns) * 1e-9;
    if (elapsed_s >= plan.max_time_s) break;
    if (est && now >= next_check && elapsed_s >= plan.min_time_s) {
      next_check = now + check_ns;
      solve(now, elapsed_s);
      // The solve ran on the runner's own core: the board was not idle meanwhile.
      est->exclude(now, monotonic_ns());
      // A sensor read no faster than it updates gives readings that cannot be placed: no layer
      // will ever get a number, however long the runs go on.
      if (!fit.unusable.empty()) {
        stop = "no_power";
        break;
      }
      if (res.converged) {
        stop = "converged";
        break;
      }
      // Every layer within the target, or one that at the rate its interval has shrunk would
      // not get there by max_time_s either: running on would not change the answer.
      if (settled_except_hopeless(res, elapsed_s)) {
        stop = "projected_max_time";
        break;
      }
      // Runs that start at one phase of the sensor add readings but no information.
      if (res.phase_lock > 0.5) jitter = true;
    }
    if (!est && elapsed_s >= plan.min_time_s) {
      stop = "no_power";
      break;
    }
  }
  r.t_end_ns = monotonic_ns();
  r.latency = measure::compute_latency_stats(r.times_s);
  if (r.cancelled) return out;
  if (source) {
    auto w = measure::read_window_power(*source, r.t_start_ns, r.t_end_ns, plan.boundary_s);
    r.power = std::move(w.summary);
    r.power_window_s = w.window_s;
    r.power_covered_s = w.covered_s;
    r.samples = std::move(w.samples);
  }
  r.decision.stop = true;
  r.decision.reason = stop;
  if (est) {
    // The readings whose windows hold the last runs arrive up to one sensor period later.
    std::this_thread::sleep_for(std::chrono::nanoseconds(window_ns + window_ns / 2 + 2'000'000));
    solve(monotonic_ns(), static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9);
    if (!res.converged) r.decision.unmet.push_back("layer_energy_interval");
    if (!res.unresolvable.empty()) unresolvable = res.unresolvable;
    if (!fit.unusable.empty()) unresolvable = fit.unusable;
  }

  // Which unit each layer ended in.
  std::vector<const measure::layer_unit*> unit_of(layers.size(), nullptr);
  for (const auto& u : res.units)
    for (int l : u.layers) unit_of[static_cast<std::size_t>(l)] = &u;
  double sum_var = 0;
  for (std::size_t li = 0; li < layers.size(); ++li) {
    const auto& l = layers[li];
    json item = {{"layer_index", li}, {"layer_name", l.name}, {"layer_type", l.type}};
    const auto lat = measure::compute_latency_stats(times[li]);
    item["latency_count"] = lat.count;
    item["latency_mean_s"] = lat.count ? json(lat.mean_s) : json();
    item["latency_median_s"] = lat.count ? json(lat.median_s) : json();
    item["latency_std_s"] = lat.count ? json(lat.std_s) : json();
    item["latency_min_s"] = lat.count ? json(lat.min_s) : json();
    item["latency_max_s"] = lat.count ? json(lat.max_s) : json();
    const auto* u = unit_of[li];
    if (!lat.count) {
      item["layer_resolution"] = "runs_nothing";
    } else if (!u || !unresolvable.empty() || !std::isfinite(u->power_ci95_w)) {
      item["layer_resolution"] = "unresolvable";
    } else {
      item["power_w"] = u->power_w;
      item["power_ci95_w"] = u->power_ci95_w;
      item["energy_j"] = u->power_w * lat.mean_s;
      item["energy_ci95_j"] = u->power_ci95_w * lat.mean_s;
      item["dynamic_power_w"] = u->power_w - *idle_w;
      item["dynamic_energy_j"] = (u->power_w - *idle_w) * lat.mean_s;
      item["layer_readings"] = u->readings;
      if (u->layers.size() > 1) {
        // Never a number of its own: the unit's power, and which layers it was measured with.
        std::string with;
        for (int o : u->layers)
          if (o != static_cast<int>(li)) with += (with.empty() ? "" : ", ") + layers[static_cast<std::size_t>(o)].name;
        item["layer_resolution"] = "merged";
        item["merged_with"] = with;
      } else {
        item["layer_resolution"] = u->rel_half_width() <= plan.target_rel ? "resolved" : "not_converged";
      }
      out.sum_energy_j += u->power_w * lat.mean_s;
      const double half = u->power_ci95_w * lat.mean_s;
      sum_var += half * half;
    }
    out.rows.push_back(std::move(item));
  }
  out.estimated = unresolvable.empty() && est.has_value();
  // The units' intervals are nearly independent once resolved; the estimator's own sum (with the
  // covariances, over the gap-free attributed time) is in the diagnostics beside it.
  out.sum_energy_ci95_j = std::sqrt(sum_var);
  auto& e = out.estimator;
  e["unresolvable"] = unresolvable.empty() ? json() : json(unresolvable);
  e["runs"] = r.times_s.size();
  e["readings"] = res.readings;
  e["units"] = res.units.size();
  e["merges"] = merges;
  e["condition_number"] = finite_or_null(res.condition_number);
  e["residual_rms_w"] = res.residual_rms_w;
  e["phase_lock"] = res.phase_lock;
  e["jitter"] = jitter;
  e["checks"] = checks;
  e["attributed_energy_j"] = res.sum_energy_j;
  e["attributed_energy_ci95_j"] = finite_or_null(res.sum_energy_ci95_j);
  e["target_half_width"] = plan.target_rel;
  e["sensor"] = sensor_json(fit);
  return out;
}

}  // namespace jetperf::kinds
