#include <jetperf/kinds/command/command_kind.hpp>

#include <cstdio>
#include <functional>

#include <algorithm>
#include <cmath>
#include <map>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/utf8.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/kinds/command/command_columns.hpp>
#include <jetperf/kinds/command/command_spec.hpp>
#include <jetperf/kinds/command/marker_socket.hpp>
#include <jetperf/kinds/command/phases.hpp>
#include <jetperf/measure/modelled_truth.hpp>
#include <jetperf/stats/latency_stats.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/kinds/common/point_power.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>
#include <jetperf/platform/user_process.hpp>

namespace jetperf::kinds {

namespace {

namespace cols = command::cols;

// Samples this far beyond each end of a run are read too: a phase at the run's edge is
// interpolated between the samples around it.
constexpr std::int64_t k_margin_ns = 1'000'000'000;
// The idle baseline's ends are cut by this much (sensor averaging lags the load before it).
constexpr double k_idle_boundary_s = 0.1;
constexpr std::size_t k_kept_marker_errors = 10;

// The cost model's class of a program's runs: the program and its arguments (runs of the same
// command take the same time, whatever the setting: a board setting's effect is not modelled).
measure::run_cost run_cost_of(const command_spec& spec) {
  std::string command = spec.program;
  for (std::size_t i = 1; i < spec.argv.size(); ++i) command += '\x1f' + spec.argv[i];
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(command));
  const auto slash = spec.program.rfind('/');
  measure::run_cost c;
  c.cls = "command/" + spec.program.substr(slash == std::string::npos ? 0 : slash + 1) + "/" + hash;
  c.work = 1;
  c.prior_s = 0;
  return c;
}

class command_kind final : public jobs::kind<command_spec, command_point> {
 public:
  explicit command_kind(command_policy policy) : policy_(std::move(policy)) {}

  std::string kind() const { return "command"; }
  std::string description() const {
    return "The researcher's own program under each board setting: wall time, exit status, power and energy per "
           "run and per phase it marks (JETPERF_MARKERS). Off unless jetperfd.conf enables it.";
  }
  const std::vector<spec_field>& spec_fields() const { return command_spec_fields(); }
  const column_table& columns() const { return command_columns(); }
  const std::vector<summary_table>& summary_tables() const { return command_summary_tables(); }

  // The spec's parse needs the daemon's policy: the kind's own; stored and to_record are the spec's.
  command_spec parse(const record& spec, const platform::board_offer& offered) const {
    return command_spec::parse(spec, offered, policy_);
  }
  std::vector<command_point> expand(const command_spec& spec) const { return kinds::expand(spec); }
  record params_of(const command_point& p) const { return p.to_record(); }
  command_point point_of(const record& p) const { return command_point::of(p); }

  std::vector<double> estimate_points_s(const command_spec& spec, const std::vector<command_point>& points,
                                        const measure::estimate_context& ctx) const {
    // The protocol around the program is known; the program's own time is what its runs took
    // on this board before (this job's first run on: the estimate is refreshed as points end),
    // nothing before it has run once. A contended run is run again after its cool-down.
    const double run_s = ctx.run ? ctx.run(run_cost_of(spec)).mean_s : 0.0;
    const double again_s = (ctx.window_repeats - 1) * (spec.cooldown_s + run_s);
    std::vector<double> out;
    for (const auto& p : points) {
      const bool first = p.repeat == 0;
      out.push_back(spec.cooldown_s + (first ? spec.idle_s + spec.warmup_runs * run_s : 0.0) + run_s + again_s);
    }
    return out;
  }

  measure::point_result run_point(measure::point_context& ctx, const command_spec& spec, const command_point& point);

  cell summarize(const std::vector<jobs::point_row>& rows) const;

 private:
  platform::user_process_result run_once(measure::point_context& ctx, const command_spec& spec, marker_socket& markers,
                                         std::int64_t repeat) const;
  /// The measured run, after its cooldown; run again while it was contended (`cancelled`: the
  /// job was cancelled meanwhile, nothing to keep).
  struct measured_run {
    platform::user_process_result run;
    marker_batch batch;
    std::optional<measure::window_contention> contention;
    bool cancelled = false;
  };
  measured_run run_measured(measure::point_context& ctx, const command_spec& spec, marker_socket& markers,
                            std::int64_t repeat) const;

  command_policy policy_;
  measure::idle_power_cache idle_;
};

// Run again while others took more than the threshold of the cores (the program's own CPU time
// is its rusage, not another's); a run that failed is the result, not run again.
command_kind::measured_run command_kind::run_measured(measure::point_context& ctx, const command_spec& spec,
                                                      marker_socket& markers, std::int64_t repeat) const {
  measure::contention_probe probe(ctx.cpu_usage);
  measured_run m;
  for (std::int64_t retries = 0;; ++retries) {
    m.cancelled = !measure::sleep_polling(ctx, spec.cooldown_s);
    if (m.cancelled) return m;
    markers.take();  // what warm-up (or a contended) run marked is not this run's
    probe.start();
    m.run = run_once(ctx, spec, markers, repeat);
    m.batch = markers.take();
    m.cancelled = m.run.cancelled;
    if (m.cancelled) return m;
    m.contention = probe.stop(spec.contention, retries, m.run.cpu_s);
    const bool failed = m.run.timed_out || m.run.term_signal || m.run.exit_code != 0;
    if (failed || !m.contention || !m.contention->contended || retries >= spec.contention.max_retries) return m;
    ctx.record("windows", "contended window", m.run.t_start_ns, m.run.t_end_ns,
               {{"others_cpu_share", m.contention->others_cpu_share}, {"retry", retries + 1}});
  }
}

platform::user_process_result command_kind::run_once(measure::point_context& ctx, const command_spec& spec,
                                                         marker_socket& markers, std::int64_t repeat) const {
  // Unique within the job, across settings and repeats (a program that names its output after it
  // overwrote the last setting's): the point's index; a warm-up run's "warmup-<point>-<n>".
  const std::string run_id = repeat >= 0 ? std::to_string(ctx.index)
                                         : "warmup-" + std::to_string(ctx.index) + "-" + std::to_string(-repeat);
  platform::user_process_spec ps;
  // Checked again as it stands now, and the file checked is the file run.
  ps.program = program_to_run(spec.program, policy_);
  ps.argv = spec.argv;
  ps.env = command_environment(spec, policy_.account,
                               {{"JETPERF_MARKERS", markers.path()},
                                {"JETPERF_JOB_ID", std::to_string(ctx.job_id)},
                                {"JETPERF_RUN", run_id},
                                {"JETPERF_REPEAT", std::to_string(repeat)}});
  ps.cwd = spec.cwd;
  if (policy_.switch_user) ps.run_as = policy_.account;
  ps.tail_bytes = policy_.tail_bytes;
  ps.timeout_s = spec.timeout_s;
  ps.cgroup_parent = policy_.cgroup_parent;
  ps.cgroup_name = "run-" + std::to_string(ctx.job_id);
  ps.limits = run_limits_of(spec, policy_);
  int started = 0;
  auto result = platform::run_user_process(
      ps, [&ctx] { return ctx.cancelled(); },
      [&](int pid) {
        started = pid;
        if (ctx.processes) ctx.processes->add_process(pid);
      });
  if (ctx.processes && started) ctx.processes->remove_process(started);
  return result;
}

// The run, its phases and its markers on the job's timeline (markers bounded by the socket's
// per-run limit).
void record_timeline(const measure::point_context& ctx, const platform::user_process_result& run,
                     const paired_markers& pairs, const marker_batch& batch) {
  ctx.record("runs", "run", run.t_start_ns, run.t_end_ns,
             record{{"pid", run.pid}, {"exit_code", run.term_signal ? cell() : cell(run.exit_code)}, {"signal", run.term_signal}});
  for (const auto& iv : pairs.intervals)
    ctx.record("phases", iv.name, iv.t_start_ns, iv.t_end_ns, iv.closed ? record() : record{{"unclosed", true}});
  for (const auto& m : batch.markers) {
    // The attributes, then the marker's own keys over them (as the timeline always showed).
    record args = cell(m.attributes()).as_record();
    args.set("type", to_string(m.what));
    if (m.client_t_ns) args.set("client_t_ns", *m.client_t_ns);
    ctx.record("markers", m.name, m.t_ns, m.t_ns, std::move(args));
  }
}

// Each marked phase's figures from the samples read around the run (`wide`); without telemetry,
// their counts and times alone.
measure::phases_result phase_power(const measure::point_context& ctx, const std::vector<telemetry::sample>& wide,
                                   const paired_markers& pairs, std::optional<double> idle_w) {
  if (!ctx.telemetry) return measure::phases_protocol({}, {}, std::nullopt, idle_w)(pairs.intervals);
  return measure::phases_protocol(ctx.telemetry->channels(), wide, ctx.telemetry->total_power_channel(),
                                  idle_w)(pairs.intervals);
}

// What was wrong with the run's markers: malformed lines (the first few named), unpaired
// begin/end, markers dropped past the socket's limits.
std::vector<std::string> marker_errors(const marker_batch& batch, const paired_markers& pairs) {
  std::vector<std::string> errors;
  for (const auto& e : batch.errors) errors.push_back("malformed: " + e);
  if (batch.malformed > batch.errors.size())
    errors.push_back(std::to_string(batch.malformed - batch.errors.size()) + " more malformed lines");
  for (const auto& p : pairs.problems)
    if (errors.size() < k_kept_marker_errors) errors.push_back(p);
  if (batch.dropped)
    errors.push_back(std::to_string(batch.dropped) + " markers dropped past the limits of " +
                     std::to_string(k_max_markers_per_run) + " markers and " +
                     std::to_string(k_max_marker_bytes_per_run >> 20) + " MiB of names and attributes per run");
  return errors;
}


measure::point_result command_kind::run_point(measure::point_context& ctx, const command_spec& spec,
                                              const command_point& point) {
  const auto repeat = point.repeat;
  const auto applied = measure::apply_point_settings(ctx, point.setting);
  const auto idle_w = spec.idle_s > 0 ? idle_.get(ctx, applied.requested, spec.idle_s, k_idle_boundary_s)
                                      : std::optional<double>();
  row identity(measure::setting_record(applied.requested));
  identity.put("repeat", repeat);
  if (ctx.cancelled()) return measure::skipped_point("cancelled", identity);

  // The socket lives for the point: it is there before the program starts and gone after.
  const auto owner = policy_.switch_user ? std::make_optional(std::make_pair(policy_.account.uid, policy_.account.gid))
                                         : std::nullopt;
  marker_socket markers(policy_.runtime_dir + "/job-" + std::to_string(ctx.job_id) + ".markers", owner,
                        k_max_markers_per_run);
  cell_list warmup_codes;
  if (repeat == 0) {
    for (std::int64_t i = 0; i < spec.warmup_runs && !ctx.cancelled(); ++i) {
      const auto w = run_once(ctx, spec, markers, -1 - i);
      warmup_codes.push_back(w.term_signal ? cell() : cell(w.exit_code));
      ctx.record("warmup", "warm-up run", w.t_start_ns, w.t_end_ns, record{{"exit_code", warmup_codes.back()}});
    }
  }
  auto measured = run_measured(ctx, spec, markers, repeat);
  if (measured.cancelled) return measure::skipped_point("cancelled", identity);
  const auto& run = measured.run;
  auto& batch = measured.batch;

  measure::point_result r;
  r.t_start_ns = run.t_start_ns;
  r.t_end_ns = run.t_end_ns;
  row& mt = r.metrics;
  mt.set(cols::repeat, repeat);
  measure::put_settings(mt, applied);
  mt.set(cols::exit_code, run.term_signal ? std::nullopt : std::optional<std::int64_t>(run.exit_code));
  mt.set(cols::signal, run.term_signal);
  mt.set(cols::timed_out, run.timed_out);
  const double wall_s = static_cast<double>(run.t_end_ns - run.t_start_ns) * 1e-9;
  mt.set(cols::wall_s, wall_s);

  measure::loop_result res;
  res.t_start_ns = run.t_start_ns;
  res.t_end_ns = run.t_end_ns;
  res.contention = measured.contention;
  std::vector<telemetry::sample> wide;
  record rail_energy;
  if (ctx.telemetry) {
    wide = ctx.telemetry->window(run.t_start_ns - k_margin_ns, run.t_end_ns + k_margin_ns);
    std::copy_if(wide.begin(), wide.end(), std::back_inserter(res.samples), [&](const telemetry::sample& s) {
      return s.t_ns >= run.t_start_ns && s.t_ns <= run.t_end_ns;
    });
    res.power = measure::summarize_window(ctx.telemetry->channels(), res.samples, ctx.telemetry->total_power_channel());
    res.power_window_s = res.power_covered_s = wall_s;
    for (const auto& kv : res.power->channels)
      if (kv.second.name.rfind("rail.", 0) == 0) rail_energy.set(kv.second.name.substr(5), kv.second.mean * wall_s);
  }
  const auto power_w = common::put_power_metrics(mt, res, idle_w, wall_s);
  measure::put_modelled(mt, ctx, res.t_start_ns, res.t_end_ns);
  mt.set(cols::rail_energy_j, std::move(rail_energy));

  const auto pairs = pair_markers(batch.markers, run.t_end_ns);
  record_timeline(ctx, run, pairs, batch);
  mt.set(cols::phases, phases_record(phase_power(ctx, wide, pairs, idle_w)));
  mt.set(cols::marks, cell(pairs.marks).as_record());
  mt.set(cols::markers, batch.markers.size());
  mt.set(cols::marker_errors, marker_errors(batch, pairs));
  mt.set(cols::warmup_exit_codes, std::move(warmup_codes));
  // The tails are bytes, cut anywhere: text from their first whole character.
  mt.set(cols::stdout_tail, utf8_tail(run.out_tail));
  mt.set(cols::stderr_tail, utf8_tail(run.err_tail));
  mt.set(cols::stdout_bytes, run.out_bytes);
  mt.set(cols::stderr_bytes, run.err_bytes);

  std::vector<std::string> flags = applied.flags;
  // The program is another process: a simulated board loads its cores and rails with it but
  // cannot slow it to the simulated clock.
  if (ctx.fidelity) flags.emplace_back("speed_not_simulated");
  measure::put_window_flags(mt, std::move(flags), ctx, res, applied, power_w.has_value(), "cpu", 0);
  mt.set(measure::cols::stop_reason,
         to_string(run.timed_out ? measure::stop_reason::timeout : measure::stop_reason::program_exit));
  mt.set(measure::cols::unmet, std::vector<std::string>{});
  r.run_s = wall_s;
  r.cost = run_cost_of(spec);

  if (const auto cause = run_failure(run, spec.timeout_s, run_limits_of(spec, policy_)); !cause.empty()) {
    r.status = "failed";
    mt.set(measure::cols::error, cause);
  }
  return r;
}

// A setting's key in the order the summaries have always listed settings: the text of the
// setting as stored ({"cpu_freq_khz":...,"emc_freq_hz":...} with its keys sorted, null where unset).
std::string setting_order_key(const platform::board_setting& s) {
  std::vector<std::pair<std::string, std::optional<std::int64_t>>> values;
  for (const auto& f : platform::setting_fields()) values.emplace_back(f.key, s.*f.member);
  std::sort(values.begin(), values.end());
  std::string key = "{";
  for (const auto& [name, v] : values)
    key += (key.size() > 1 ? ",\"" : "\"") + name + "\":" + (v ? std::to_string(*v) : std::string("null"));
  return key + "}";
}

cell command_kind::summarize(const std::vector<jobs::point_row>& rows) const {
  // Per board setting: the runs' median wall time and energy, and each phase's mean time and
  // energy per run (the energy over the runs that have one; null when none had a power reading).
  struct phase_acc {
    std::size_t runs = 0, with_energy = 0;
    double time_s = 0, energy_j = 0;
  };
  struct setting_acc {
    platform::board_setting setting;
    std::vector<double> walls, energies;
    std::map<std::string, phase_acc> phases;
  };
  std::map<std::string, setting_acc> by_setting;
  for (const auto& row : rows) {
    if (row.status != "ok") continue;
    const auto setting = measure::setting_of_point(row.params);
    auto& acc = by_setting[setting_order_key(setting)];
    acc.setting = setting;
    acc.walls.push_back(row.metrics.get(cols::wall_s).value_or(0.0));
    if (const auto e = row.metrics.get(measure::cols::energy_j)) acc.energies.push_back(*e);
    for (const auto& [name, ph] : row.metrics.get(cols::phases).value_or(record())) {
      if (!ph.is_record()) continue;
      auto& f = acc.phases[name];
      ++f.runs;
      const auto* time_s = ph.as_record().find("time_s");
      f.time_s += time_s && time_s->is_number() ? *time_s->number() : 0.0;
      const auto* energy = ph.as_record().find("energy_j");
      if (energy && energy->is_number()) {
        ++f.with_energy;
        f.energy_j += *energy->number();
      }
    }
  }
  const auto median = [](const std::vector<double>& v) -> cell {
    return v.empty() ? cell() : cell(stats::compute_latency_stats(v).median_s);
  };
  cell_list settings;
  for (const auto& [key, acc] : by_setting) {
    record phases;
    for (const auto& [name, f] : acc.phases)
      phases.set(name, record{{"runs", f.runs},
                              {"time_mean_s", f.time_s / static_cast<double>(f.runs)},
                              {"energy_mean_j", f.with_energy ? cell(f.energy_j / static_cast<double>(f.with_energy)) : cell()}});
    settings.push_back(record{{"setting", measure::setting_record(acc.setting)},
                              {"runs", acc.walls.size()},
                              {"wall_median_s", median(acc.walls)},
                              {"energy_median_j", median(acc.energies)},
                              {"phases", std::move(phases)}});
  }
  return record{{"settings", std::move(settings)}};
}

}  // namespace

std::string run_failure(const platform::user_process_result& run, double timeout_s, const platform::run_limits& limits) {
  const auto& hit = run.limit_events;
  if (hit.oom_kills)
    return "oom: " + std::to_string(hit.oom_kills) + " process(es) killed past max_memory_mb = " +
           std::to_string(limits.max_memory_bytes >> 20) + " MiB";
  if (hit.pids_refused)
    return "pids: " + std::to_string(hit.pids_refused) + " fork(s) refused at max_processes = " +
           std::to_string(limits.max_processes);
  if (run.timed_out) return "timed out after " + std::to_string(timeout_s) + " s (process group killed)";
  if (run.term_signal) return "ended by signal " + std::to_string(run.term_signal);
  if (run.exit_code != 0) return "exit status " + std::to_string(run.exit_code);
  return {};
}

std::unique_ptr<jobs::workload> make_command_kind(command_policy policy) {
  return jobs::make_workload(command_kind(std::move(policy)));
}

}  // namespace jetperf::kinds
