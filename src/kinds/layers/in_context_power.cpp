#include <jetperf/kinds/layers/in_context_power.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/measure/latency_stats.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/sensor_updates.hpp>
#include <jetperf/measure/window_edge_targets.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

// Polls before the window the sensor's clock is fitted from as well.
constexpr std::int64_t k_sensor_fit_lead_ns = 3'000'000'000;
// A layer shorter than this share of the sensor's window (0.73 ms of an Orin's 4.9 ms) is told
// from its neighbours only by the window edges that fall inside it: where those are placed, to
// within tens of microseconds, moves its figure, and its interval does not count that (its row
// is flagged edge_limited, and the runs do not wait for its interval to narrow). On the
// simulated Orin the stem's 0.4-0.5 ms layers came out up to 0.65 W off their power run alone;
// conv1, 1.4 ms, within its interval.
constexpr double k_edge_limited_windows = 0.15;
// How far either side of a layer a targeted update may fall (the runs' own spread).
constexpr double k_edge_margin_ns = 250'000;

// The longest wait between two checks, however long a check takes.
constexpr std::int64_t k_max_check_spacing_ns = 2'000'000'000;

// What a check of the estimate may do.
enum class check { decide, locked, refit_failed };

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

// The layer each op belongs to (-1: none), when some layer has several ops: the estimate then
// models each op (or run of short ops) on its own and adds them up per layer. Empty: one op per
// layer, the layers are the parts.
std::vector<int> layer_of_op(const models::network& net, const std::vector<models::layer>& layers) {
  std::vector<int> out(net.ops.size(), -1);
  bool several = false;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    several = several || layers[l].last - layers[l].first > 1;
    for (int o = layers[l].first; o < layers[l].last; ++o)
      if (o >= 0 && static_cast<std::size_t>(o) < out.size()) out[static_cast<std::size_t>(o)] = static_cast<int>(l);
  }
  if (!several) out.clear();
  return out;
}

// A run's ops that belong to a layer, as the estimator's parts, in time order.
std::vector<measure::layer_span> part_spans(const std::vector<workloads::op_span>& ops, const std::vector<int>& layer_of) {
  std::vector<measure::layer_span> out;
  for (const auto& o : ops)
    if (o.op >= 0 && static_cast<std::size_t>(o.op) < layer_of.size() && layer_of[static_cast<std::size_t>(o.op)] >= 0)
      out.push_back({o.op, o.start_ns, o.end_ns});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  return out;
}

json sensor_json(const measure::sensor_update_fit& fit, double poll_period_s) {
  return {{"nominal_period_s", fit.nominal_period_s},
          {"poll_period_s", poll_period_s > 0 ? json(poll_period_s) : json()},
          {"period_s", fit.period_s},
          {"lateness_median_s", fit.lateness_median_s},
          {"lateness_iqr_s", fit.lateness_iqr_s},
          {"phase_uncertainty_s", fit.phase_uncertainty_s},
          {"changes", fit.changes},
          {"readings", fit.readings.size()}};
}

// The time `spans` take of [from_ns, to_ns].
double time_within(const std::vector<std::pair<std::int64_t, std::int64_t>>& spans, std::int64_t from_ns,
                     std::int64_t to_ns) {
  std::int64_t sum = 0;
  for (const auto& [a, b] : spans) sum += std::max<std::int64_t>(0, std::min(b, to_ns) - std::max(a, from_ns));
  return static_cast<double>(sum) * 1e-9;
}

}  // namespace

double power_over_runs(double window_w, double window_s, double paused_s, double between_runs_w) {
  if (!(paused_s > 0) || !std::isfinite(between_runs_w) || !(window_s > paused_s)) return window_w;
  return (window_w * window_s - between_runs_w * paused_s) / (window_s - paused_s);
}

std::vector<std::string> in_context_flags(const in_context_power& p) {
  std::vector<std::string> flags;
  const bool paused = p.estimator.contains("between_runs") && p.estimator["between_runs"].value("pauses", 0) > 0;
  if (paused || p.estimator.value("jitter", false) || p.estimator.value("targeted_runs", 0) > 0)
    flags.push_back("paused_between_runs");
  if (p.window.decision.reason == "sensor_clock_lost") flags.push_back("sensor_clock_lost");
  return flags;
}

in_context_power measure_in_context_power(const measure::point_context& ctx, workloads::layer_backend& be,
                                          const models::network& net, const std::vector<models::layer>& layers,
                                          std::optional<double> idle_w, const in_context_power_plan& plan) {
  in_context_power out;
  auto& r = out.window;
  const auto kernels = be.op_kernels();
  const telemetry::sample_source* source = ctx.telemetry;
  const auto total = source ? source->total_power_channel() : std::nullopt;
  const double nominal_s = plan.sensor_period_s > 0 ? plan.sensor_period_s : source ? source->update_period_s() : 0.0;
  std::string unresolvable;
  if (!source || !total) unresolvable = "no power sensor";
  else if (!idle_w) unresolvable = "no idle baseline to subtract";
  else if (!(nominal_s > 0)) unresolvable = "the sensor's update period is unknown";

  const auto window_ns = static_cast<std::int64_t>(nominal_s * 1e9);
  std::optional<measure::layer_power_estimator> est;
  // A layer of several ops (a block) is modelled by its ops, grouped to min_part_windows.
  const auto parts = layer_of_op(net, layers);
  if (unresolvable.empty()) {
    measure::layer_estimate_options o{window_ns, *idle_w, plan.target_rel};
    o.min_part_ns = static_cast<std::int64_t>(plan.min_part_windows * static_cast<double>(window_ns));
    // The runs pause between them, and what the board draws there is measured, not assumed.
    o.between_runs_column = plan.pause_windows > 0;
    est.emplace(layers.size(), o, parts);
  }
  std::optional<total_power_series> series;
  std::vector<std::vector<double>> times(layers.size());
  std::mt19937_64 rng(static_cast<std::uint64_t>(monotonic_ns()));
  bool jitter = false;
  std::size_t spans_kept = 0, checks = 0, merges = 0, targeted_runs = 0, failed_refits = 0;
  measure::run_offsets offsets(layers.size());
  std::vector<measure::edge_target> targets;  // where the next runs' updates should fall
  measure::sensor_update_fit fit;
  measure::layer_power_result res;
  std::string stop = "max_time";
  // The pauses between runs and the runs themselves (CLOCK_MONOTONIC), for the end-to-end row's
  // power over the runs alone.
  std::vector<std::pair<std::int64_t, std::int64_t>> pauses, run_spans;

  // Too short for the sensor (edge_limited): see k_edge_limited_windows.
  const auto edge_limited = [&](double seconds) { return seconds < k_edge_limited_windows * fit.period_s; };
  const auto settled_except_hopeless = [&](const measure::layer_power_result& e) {
    // Intervals from a handful of spare readings are themselves too uncertain to act on.
    if (!e.unresolvable.empty() || e.residual_dof < measure::k_min_residual_dof) return false;
    // Every layer short of the target would still be short of it at max_time_s, from what the
    // readings to come can add (a NaN projection: not known yet, so not hopeless). Layers too
    // short for the sensor (edge_limited) are not waited for: their intervals leave out where the
    // window edges inside them fall, so more runs narrow a figure without making it right.
    return std::all_of(e.units.begin(), e.units.end(), [&](const measure::layer_unit& u) {
      return u.rel_half_width() <= plan.target_rel || u.projected_rel > plan.target_rel || edge_limited(u.duration_s);
    });
  };
  // Refits the sensor's update times over everything read so far, then solves (merging first
  // what cannot be resolved in the time left), and says whether the check may decide anything:
  // not when the runs are locked in phase with the sensor's updates (against the fitted period;
  // with `may_lock`, locked runs are not merged: they make neighbours inseparable only until the
  // pauses that unlock them), nor when the refit placed no updates.
  // `horizon_s`: how long the runs may still go on (merges judge what the readings by then can
  // separate; at the end, none are to come).
  const auto solve = [&](std::int64_t until_ns, double elapsed_s, double horizon_s, bool may_lock) {
    ++checks;
    // A fit that placed a few hundred updates is a reliable start for the next, which is then
    // searched near it (cheap, and right over a long stream, where a search from scratch has to
    // find the period to within a few microseconds); an early one (a few dozen updates) may be
    // an alias, and is redone from scratch. (Extra changes, a value seen changing twice within
    // one update as when a poll falls between the writes of a rail's voltage and current, do not
    // make it less reliable.)
    const bool reliable = fit.unusable.empty() && fit.readings.size() >= 200;
    auto next = measure::fit_sensor_updates(series->read_until(until_ns), nominal_s, reliable ? &fit : nullptr);
    if (!next.unusable.empty() && !next.poll_too_slow && reliable) {
      // A refit that places nothing keeps the last placement: its readings stay in the system.
      // (With none, every layer would look inseparable from its neighbours, and be merged.)
      ++failed_refits;
      res = est->solve();
      return check::refit_failed;
    }
    fit = std::move(next);
    est->set_readings(fit.readings, static_cast<std::int64_t>(fit.period_s * 1e9));
    if (may_lock && est->phase_locked()) {
      res = est->solve();
      return check::locked;
    }
    merges += est->merge_unresolvable(elapsed_s, horizon_s, &res);
    return check::decide;
  };

  r.t_start_ns = monotonic_ns();
  if (est) {
    // The sensor's clock is fitted from the polls before the window too (the idle baseline and
    // the warm-up, read anyway): a fit over the first half second alone is often a poll
    // spacing off, and the first check decides merges on it. Readings over that time are not
    // in the system: the warm-up's runs are not modelled, so a reading that straddles the
    // window's start would count them as idle.
    const auto fit_from =
        std::max({r.t_start_ns - k_sensor_fit_lead_ns, source->complete_since_ns(), plan.sensor_since_ns});
    series.emplace(*source, *total, fit_from);
    est->exclude(fit_from, r.t_start_ns);
  }
  const auto check_ns = static_cast<std::int64_t>(plan.check_period_s * 1e9);
  auto next_check = r.t_start_ns + check_ns;
  for (std::size_t run = 0;; ++run) {
    if (ctx.cancelled()) {
      r.cancelled = true;
      stop = "cancelled";
      break;
    }
    // The last run's length: an update aimed past it would fall after the run.
    const double run_ns = r.times_s.empty() ? 0.0 : r.times_s.back() * 1e9;
    if (!targets.empty() && run % 2 == 1) {
      // An update at a random point of the next layer short of its target. (Every other run
      // only: the runs in between keep their own phases, so the edges still fall everywhere and
      // the other layers stay as separable as they were.)
      const auto& t = targets[(run / 2) % targets.size()];
      double at = std::uniform_real_distribution<double>(t.from_ns, t.to_ns)(rng);
      // The readings whose window holds the pause are left out: a board need not fall to idle
      // the moment its work pauses (the simulated Orin does not), so the pause's power is not
      // known. A window that ends `at` into the run reaches back one period; where that crosses
      // the run's start, the window's other edge is aimed there instead (its end then falls one
      // period later, still inside the run), so the aimed reading is kept.
      const double period_ns = fit.period_s * 1e9;
      if (at < period_ns + k_edge_margin_ns) at += period_ns;
      if (at < run_ns) {
        // Asleep, not spinning. (A sleep wakes some tens of microseconds late, within the margin.)
        const auto now = monotonic_ns();
        std::this_thread::sleep_for(std::chrono::nanoseconds(measure::delay_for_update_at(now, at, fit.update_ns, period_ns)));
        est->exclude(now, monotonic_ns());
        ++targeted_runs;
      }
    } else if (run > 0 && (plan.pause_windows > 0 || jitter)) {
      // A pause before each run, one and a half sensor windows long: the readings over a run's
      // last layers then end before the next run's first ones begin, and those wholly inside a
      // pause measure the board there (the estimator's column for the time between runs). Back
      // to back, a run's tail and the next run's head (avgpool, fc; conv1, bn1, relu, maxpool:
      // five short layers within one 4.9 ms window) are told apart only by the few window edges
      // that fall between them. When the runs lock in phase with the sensor, a random pause of
      // up to one window more.
      const double period_ns = fit.period_s > 0 ? fit.period_s * 1e9 : static_cast<double>(window_ns);
      auto pause_ns = static_cast<std::int64_t>(plan.pause_windows * period_ns);
      if (jitter) pause_ns += std::uniform_int_distribution<std::int64_t>(0, window_ns)(rng);
      const auto from = monotonic_ns();
      std::this_thread::sleep_for(std::chrono::nanoseconds(pause_ns));
      if (pauses.size() < plan.max_spans) pauses.emplace_back(from, monotonic_ns());
    }
    const auto ops = be.timed_run_ops();
    if (ops.empty()) {
      out.estimator["unsupported"] = be.name() + " cannot time its ops one by one (in_context runs on the CPU backends)";
      return out;
    }
    const auto spans = layer_spans_of_run(ops, layers);
    const auto now = monotonic_ns();
    r.times_s.push_back(static_cast<double>(ops.back().end_ns - ops.front().start_ns) * 1e-9);
    if (run_spans.size() < plan.max_spans) run_spans.emplace_back(ops.front().start_ns, ops.back().end_ns);
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
      est->add_run(parts.empty() ? spans : part_spans(ops, parts));
      offsets.add_run(spans);
      spans_kept += spans.size();
    }
    const double elapsed_s = static_cast<double>(now - r.t_start_ns) * 1e-9;
    if (elapsed_s >= plan.max_time_s) break;
    if (est && now >= next_check && elapsed_s >= plan.min_time_s) {
      // Runs that start at one phase of the sensor add readings but no information: from then on
      // each starts after a random pause, and nothing is decided on the locked ones. (Targeted
      // runs start at chosen phases: locked by design, and spread over the layers they target.)
      const auto outcome = solve(now, elapsed_s, plan.max_time_s, targeted_runs == 0);
      if (spdlog::should_log(spdlog::level::debug)) {
        // Why the runs go on: each unit short of the target, its interval now and at max_time_s.
        std::string open;
        for (const auto& u : res.units)
          if (u.rel_half_width() > plan.target_rel)
            open += fmt::format(" {}{}:{:.3f}/{:.3f}", layers[static_cast<std::size_t>(u.layers.front())].name,
                                u.layers.size() > 1 ? "+" : "", u.rel_half_width(), u.projected_rel);
        spdlog::debug("in_context check at {:.2f} s: {} runs, {} readings, {} units, {:.1f} ms; short of the target:{}",
                      elapsed_s, est->runs(), res.readings, res.units.size(),
                      static_cast<double>(monotonic_ns() - now) / 1e6, open.empty() ? " none" : open);
      }
      // The solve ran on the runner's own core: the board was not idle meanwhile.
      const auto checked = monotonic_ns();
      est->exclude(now, checked);
      // The checks take at most a fifth of the time (at op granularity, 175 units, a solve takes
      // about 100 ms; at block granularity 10-20 ms), but are never more than 2 s apart and a few
      // are always left before max_time_s: a slow host's first check (its sensor fit from
      // scratch: 3 s under valgrind) would otherwise leave none, and the runs would go on to
      // max_time_s whatever the estimate, or long after a sensor lost its clock.
      const auto left_ns = static_cast<std::int64_t>(plan.max_time_s * 1e9) - (checked - r.t_start_ns);
      next_check = checked + std::max(check_ns, std::min({4 * (checked - now), left_ns / 3, k_max_check_spacing_ns}));
      // A sensor read no faster than it updates gives readings that cannot be placed: no layer
      // will ever get a number, however long the runs go on. (A fit that explains too few
      // changes may be an early alias: the next check fits afresh.)
      if (fit.poll_too_slow) {
        stop = "no_power";
        break;
      }
      if (outcome == check::locked) {
        jitter = true;
        continue;
      }
      // The sensor's changes no longer follow the clock its earlier ones did: no later reading
      // can be placed, so more runs add nothing. The estimate keeps the readings placed before.
      if (outcome == check::refit_failed) {
        stop = "sensor_clock_lost";
        break;
      }
      // From a fit that places the updates, the next runs start where they help the layers
      // still short of their target.
      targets.clear();
      if (plan.aim_updates && fit.unusable.empty() && fit.period_s > 0)
        targets = measure::edge_targets(res, offsets, plan.target_rel, k_edge_margin_ns);
      if (res.converged) {
        stop = "converged";
        break;
      }
      // Every layer within the target, or one that the readings still to come would not bring
      // there by max_time_s either: running on would not change the answer.
      if (settled_except_hopeless(res)) {
        stop = "projected_max_time";
        break;
      }
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
    const double ran_s = static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9;
    solve(monotonic_ns(), ran_s, ran_s, false);
    if (!res.converged) r.decision.unmet.push_back("layer_energy_interval");
    if (!res.unresolvable.empty()) unresolvable = res.unresolvable;
    if (!fit.unusable.empty()) unresolvable = fit.unusable;
  }
  // The end-to-end row is the runs' power: the window holds the time between them too (the
  // pauses, and the checks' solves, 1-3% of it), which is taken out at the power the readings
  // measured between runs (the estimator's own unknown, mostly from the readings wholly inside a
  // pause; exact for the solves on a board whose power follows its work, a little high on one
  // whose solving core draws more). The window's energy comes from the placed readings wholly
  // inside it, each the mean over its own window, whose runs' share is known to the nanosecond
  // (the samples' mean lags by half an update and a poll). Its rails stay the samples' (flagged).
  json between = {{"pauses", pauses.size()}, {"paused_s", time_within(pauses, r.t_start_ns, r.t_end_ns)},
                  {"power_w", finite_or_null(res.between_runs_power_w)},
                  {"power_ci95_w", finite_or_null(res.between_runs_ci95_w)},
                  {"readings", res.between_runs_readings}, {"window_power_w", nullptr}};
  if (r.power && r.power->total_power_w) {
    between["window_power_w"] = *r.power->total_power_w;
    const auto w_ns = static_cast<std::int64_t>(fit.period_s * 1e9);
    double watts = 0, run_s = 0;
    std::size_t n = 0;
    for (const auto& k : fit.readings) {
      if (w_ns <= 0 || k.end_ns - w_ns < r.t_start_ns || k.end_ns > r.t_end_ns) continue;
      watts += k.watts;
      run_s += time_within(run_spans, k.end_ns - w_ns, k.end_ns);
      ++n;
    }
    if (!pauses.empty() && n > 0) {
      const double covered_s = static_cast<double>(n) * fit.period_s;
      r.power->total_power_w =
          power_over_runs(watts / static_cast<double>(n), covered_s, covered_s - run_s, res.between_runs_power_w);
    }
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
      if (edge_limited(lat.mean_s)) item["flags"] = json::array({"edge_limited"});
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
  e["columns"] = res.columns;
  e["merges"] = merges;
  e["condition_number"] = finite_or_null(res.condition_number);
  e["residual_rms_w"] = res.residual_rms_w;
  e["phase_lock"] = res.phase_lock;
  e["jitter"] = jitter;
  e["targeted_runs"] = targeted_runs;
  e["checks"] = checks;
  e["failed_refits"] = failed_refits;
  e["attributed_energy_j"] = res.sum_energy_j;
  e["attributed_energy_ci95_j"] = finite_or_null(res.sum_energy_ci95_j);
  e["target_half_width"] = plan.target_rel;
  e["sensor"] = sensor_json(fit, plan.poll_period_s);
  e["between_runs"] = std::move(between);
  return out;
}

}  // namespace jetperf::kinds
