#include <jetperf/measure/protocols/point.hpp>

#include <jetperf/measure/kernel_runs.hpp>

namespace jetperf::measure {

namespace {

// The window's timed runs on the timeline: the first k_timed_runs of them (each as long as it
// timed itself), with the total on the first, so a bounded sample still says how many ran.
void record_runs(const point_context& ctx, const loop_result& w) {
  for (std::size_t i = 0; i < w.ends_ns.size() && i < w.times_s.size(); ++i) {
    record args{{"run", i}, {"time_s", w.times_s[i]}};
    if (i == 0) args.set("runs_total", w.times_s.size());
    ctx.record("runs", "run", w.ends_ns[i] - static_cast<std::int64_t>(w.times_s[i] * 1e9), w.ends_ns[i], std::move(args));
  }
}

}  // namespace

point_measurement point_protocol::operator()() {
  if (!settle() || !prepare()) return m_;
  warm_up();
  if (plan_.window) {
    kinds_window();
    return m_;
  }
  if (loop_window()) record_window();
  return m_;
}

bool point_protocol::cancelled() {
  m_.skipped = "cancelled";
  return false;
}

bool point_protocol::settle() {
  // Board settings first: everything after runs under them, idle baseline included.
  m_.applied = apply_point_settings(ctx_, setting_);
  m_.idle_w = idle_.get(ctx_, m_.applied.requested, plan_.idle_s, plan_.boundary_s);
  if (ctx_.cancelled() || !sleep_polling(ctx_, plan_.cooldown_s)) return cancelled();
  return true;
}

bool point_protocol::prepare() {
  if (!plan_.prepare) return true;
  if (auto reason = plan_.prepare()) {
    m_.skipped = *reason;
    return false;
  }
  return true;
}

void point_protocol::warm_up() {
  auto& clock = ctx_.clock();
  const auto warm_start = clock.now_ns();
  const auto warm_end = warm_start + static_cast<std::int64_t>(plan_.warmup_s * 1e9);
  std::size_t warm_runs = 0;
  for (; !ctx_.cancelled() && (warm_runs < plan_.warmup_runs || clock.now_ns() < warm_end); ++warm_runs) plan_.run_once();
  if (warm_runs) ctx_.record("warmup", "warm-up", warm_start, clock.now_ns(), {{"runs", warm_runs}});
}

void point_protocol::kinds_window() {
  contention_probe probe(ctx_.cpu_usage);
  probe.start();
  m_.window = plan_.window(m_.idle_w);
  if (m_.window.cancelled || ctx_.cancelled()) {
    cancelled();
    return;
  }
  m_.window.contention = probe.stop(plan_.contention, 0);
  m_.latency = m_.window.latency;
}

std::vector<double> point_protocol::latency_runs() {
  std::vector<double> times;
  if (!plan_.fixed) return times;
  for (std::size_t i = 0; i < plan_.fixed->latency_runs && !ctx_.cancelled(); ++i) times.push_back(plan_.run_once());
  return times;
}

bool point_protocol::loop_window() {
  loop_options opt;
  opt.boundary_s = plan_.boundary_s;
  opt.cancel = ctx_.cancel;
  opt.time = &ctx_.clock();
  const auto latency_run = latency_runs();
  if (plan_.fixed) opt.stop.fixed_duration_s = plan_.fixed->window_s;
  else opt.stop = plan_.adaptive.stop;
  const measurement_loop loop(opt, ctx_.telemetry);
  contention_probe probe(ctx_.cpu_usage);
  for (std::int64_t retries = 0;; ++retries) {
    probe.start();
    m_.window = loop.run(plan_.run_once);
    if (m_.window.cancelled || ctx_.cancelled()) return cancelled();
    m_.window.contention = probe.stop(plan_.contention, retries);
    if (!m_.window.contention || !m_.window.contention->contended || retries >= plan_.contention.max_retries) break;
    // Measured again: the window stays on the timeline, named for why it was not kept.
    ctx_.record("windows", "contended window", m_.window.t_start_ns, m_.window.t_end_ns,
                {{"others_cpu_share", m_.window.contention->others_cpu_share}, {"retry", retries + 1}});
  }
  m_.latency = plan_.fixed && plan_.fixed->latency_runs > 0 ? stats::compute_latency_stats(latency_run) : m_.window.latency;
  return true;
}

void point_protocol::record_window() {
  record_runs(ctx_, m_.window);
  if (plan_.tracer && !ctx_.cancelled()) record_kernel_runs(ctx_, *plan_.tracer, plan_.run_once);
}

point_measurement run_point(point_context& ctx, const platform::board_setting& setting, const point_plan& plan,
                            idle_power_cache& idle) {
  return point_protocol(ctx, setting, plan, idle)();
}

}  // namespace jetperf::measure
