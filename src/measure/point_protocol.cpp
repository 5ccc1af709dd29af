#include <jetperf/measure/point_protocol.hpp>


namespace jetperf::measure {

namespace {

// The window's timed runs on the timeline: the first k_timed_runs of them (each as long as it
// timed itself), with the total on the first, so a bounded sample still says how many ran.
void record_runs(const measure::point_context& ctx, const loop_result& w) {
  for (std::size_t i = 0; i < w.ends_ns.size() && i < w.times_s.size(); ++i) {
    nlohmann::json args = {{"run", i}, {"time_s", w.times_s[i]}};
    if (i == 0) args["runs_total"] = w.times_s.size();
    ctx.record("runs", "run", w.ends_ns[i] - static_cast<std::int64_t>(w.times_s[i] * 1e9), w.ends_ns[i], std::move(args));
  }
}

}  // namespace

point_measurement run_point(measure::point_context& ctx, const nlohmann::json& point, const point_plan& plan,
                            idle_power_cache& idle) {
  return run_point(ctx, setting_of_point(point), plan, idle);
}

point_measurement run_point(measure::point_context& ctx, const platform::board_setting& setting, const point_plan& plan,
                            idle_power_cache& idle) {
  point_measurement m;
  // Board settings first: everything after runs under them, idle baseline included.
  m.applied = apply_point_settings(ctx, setting);
  m.idle_w = idle.get(ctx, m.applied.requested, plan.idle_s, plan.boundary_s);
  if (ctx.cancelled() || !sleep_polling(ctx, plan.cooldown_s)) {
    m.skipped = "cancelled";
    return m;
  }
  if (plan.prepare) {
    if (auto reason = plan.prepare()) {
      m.skipped = *reason;
      return m;
    }
  }
  // Warm-up: clocks ramp, caches, allocations and library heuristics settle; these runs are discarded.
  auto& clock = ctx.clock();
  const auto warm_start = clock.now_ns();
  const auto warm_end = warm_start + static_cast<std::int64_t>(plan.warmup_s * 1e9);
  std::size_t warm_runs = 0;
  for (; !ctx.cancelled() && (warm_runs < plan.warmup_runs || clock.now_ns() < warm_end); ++warm_runs) plan.run_once();
  if (warm_runs) ctx.record("warmup", "warm-up", warm_start, clock.now_ns(), {{"runs", warm_runs}});

  contention_probe probe(ctx.cpu_usage);
  if (plan.window) {
    // The kind's own window (in_context) is long and not repeated: its contention is reported.
    probe.start();
    m.window = plan.window(m.idle_w);
    if (m.window.cancelled || ctx.cancelled()) {
      m.skipped = "cancelled";
      return m;
    }
    m.window.contention = probe.stop(plan.contention, 0);
    m.latency = m.window.latency;
    return m;
  }
  loop_options opt;
  opt.boundary_s = plan.boundary_s;
  opt.cancel = ctx.cancel;
  opt.time = &clock;
  std::vector<double> latency_run;
  if (plan.fixed) {
    for (std::size_t i = 0; i < plan.fixed->latency_runs && !ctx.cancelled(); ++i) latency_run.push_back(plan.run_once());
    opt.stop.fixed_duration_s = plan.fixed->window_s;
  } else {
    opt.stop = plan.adaptive.stop;
  }
  const measurement_loop loop(opt, ctx.telemetry);
  for (std::int64_t retries = 0;; ++retries) {
    probe.start();
    m.window = loop.run(plan.run_once);
    if (m.window.cancelled || ctx.cancelled()) {
      m.skipped = "cancelled";
      return m;
    }
    m.window.contention = probe.stop(plan.contention, retries);
    if (!m.window.contention || !m.window.contention->contended || retries >= plan.contention.max_retries) break;
    // Measured again: the window stays on the timeline, named for why it was not kept.
    ctx.record("windows", "contended window", m.window.t_start_ns, m.window.t_end_ns,
               {{"others_cpu_share", m.window.contention->others_cpu_share}, {"retry", retries + 1}});
  }
  m.latency = plan.fixed && plan.fixed->latency_runs > 0 ? compute_latency_stats(latency_run) : m.window.latency;
  record_runs(ctx, m.window);
  if (plan.tracer && !ctx.cancelled()) record_kernel_runs(ctx, *plan.tracer, plan.run_once);
  return m;
}

}  // namespace jetperf::measure
