#include <jetperf/kinds/json_row_bridge.hpp>
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
#include <jetperf/measure/latency_stats.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_power.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/sweep_axes.hpp>
#include <jetperf/platform/user_process.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

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

  command_spec parse(const json& spec, const platform::board_offer& offered) const {
    return command_spec::parse(spec, offered, policy_);
  }
  command_spec stored(const json& spec) const { return command_spec::stored(spec); }
  json to_json(const command_spec& spec) const { return spec.to_json(); }
  std::vector<command_point> expand(const command_spec& spec) const { return kinds::expand(spec); }
  record params_of(const command_point& p) const { return record_of(p.to_json()); }
  command_point point_of(const record& p) const { return command_point::of(jetperf::to_json(p)); }

  std::vector<double> estimate_points_s(const command_spec& spec, const std::vector<command_point>& points,
                                        const measure::estimate_context& ctx) const {
    // The protocol around the program is known; the program's own time is what its runs took
    // on this board before (this job's first run on: the estimate is refreshed as points end),
    // nothing before it has run once.
    const double run_s = ctx.run ? ctx.run(run_cost_of(spec)).mean_s : 0.0;
    std::vector<double> out;
    for (const auto& p : points) {
      const bool first = p.repeat == 0;
      out.push_back(spec.cooldown_s + (first ? spec.idle_s + spec.warmup_runs * run_s : 0.0) + run_s);
    }
    return out;
  }

  measure::point_result run_point(measure::point_context& ctx, const command_spec& spec, const command_point& point);

  cell summarize(const std::vector<jobs::point_row>& rows) const { return cell_of(summarize_json(jobs::rows_json(rows))); }
  json summarize_json(const std::vector<json>& rows) const;

 private:
  platform::user_process_result run_once(measure::point_context& ctx, const command_spec& spec, marker_socket& markers,
                                         std::int64_t repeat) const;

  command_policy policy_;
  measure::idle_power_cache idle_;
};

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
    json args(m.attributes());
    args["type"] = to_string(m.what);
    if (m.client_t_ns) args["client_t_ns"] = *m.client_t_ns;
    ctx.record("markers", m.name, m.t_ns, m.t_ns, record_of(args));
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
  json warmup_codes = json::array();
  if (repeat == 0) {
    for (std::int64_t i = 0; i < spec.warmup_runs && !ctx.cancelled(); ++i) {
      const auto w = run_once(ctx, spec, markers, -1 - i);
      warmup_codes.push_back(w.term_signal ? json() : json(w.exit_code));
      ctx.record("warmup", "warm-up run", w.t_start_ns, w.t_end_ns, record{{"exit_code", cell_of(warmup_codes.back())}});
    }
  }
  if (!measure::sleep_polling(ctx, spec.cooldown_s)) return measure::skipped_point("cancelled", identity);
  markers.take();  // what warm-up runs marked is not this run's
  const auto run = run_once(ctx, spec, markers, repeat);
  auto batch = markers.take();
  if (run.cancelled) return measure::skipped_point("cancelled", identity);

  measure::point_result r;
  r.t_start_ns = run.t_start_ns;
  r.t_end_ns = run.t_end_ns;
  json mt;
  mt["repeat"] = repeat;
  put_into(mt, [&](row& x) { measure::put_settings(x, applied); });
  mt["exit_code"] = run.term_signal ? json() : json(run.exit_code);
  mt["signal"] = run.term_signal;
  mt["timed_out"] = run.timed_out;
  const double wall_s = static_cast<double>(run.t_end_ns - run.t_start_ns) * 1e-9;
  mt["wall_s"] = wall_s;

  measure::loop_result res;
  res.t_start_ns = run.t_start_ns;
  res.t_end_ns = run.t_end_ns;
  std::vector<telemetry::sample> wide;
  json rail_energy = json::object();
  if (ctx.telemetry) {
    wide = ctx.telemetry->window(run.t_start_ns - k_margin_ns, run.t_end_ns + k_margin_ns);
    std::copy_if(wide.begin(), wide.end(), std::back_inserter(res.samples), [&](const telemetry::sample& s) {
      return s.t_ns >= run.t_start_ns && s.t_ns <= run.t_end_ns;
    });
    res.power = measure::summarize_window(ctx.telemetry->channels(), res.samples, ctx.telemetry->total_power_channel());
    res.power_window_s = res.power_covered_s = wall_s;
    for (const auto& kv : res.power->channels)
      if (kv.second.name.rfind("rail.", 0) == 0) rail_energy[kv.second.name.substr(5)] = kv.second.mean * wall_s;
  }
  std::optional<double> power_w;
  put_into(mt, [&](row& x) { power_w = measure::put_power_metrics(x, res, idle_w, wall_s); });
  mt["rail_energy_j"] = rail_energy;

  const auto pairs = pair_markers(batch.markers, run.t_end_ns);
  record_timeline(ctx, run, pairs, batch);
  mt["phases"] = phases_json(phase_power(ctx, wide, pairs, idle_w));
  mt["marks"] = pairs.marks;
  mt["markers"] = batch.markers.size();
  json errors = json::array();
  for (const auto& e : batch.errors) errors.push_back("malformed: " + e);
  if (batch.malformed > batch.errors.size())
    errors.push_back(std::to_string(batch.malformed - batch.errors.size()) + " more malformed lines");
  for (const auto& p : pairs.problems)
    if (errors.size() < k_kept_marker_errors) errors.push_back(p);
  if (batch.dropped)
    errors.push_back(std::to_string(batch.dropped) + " markers dropped past the limits of " +
                     std::to_string(k_max_markers_per_run) + " markers and " +
                     std::to_string(k_max_marker_bytes_per_run >> 20) + " MiB of names and attributes per run");
  mt["marker_errors"] = errors;
  mt["warmup_exit_codes"] = warmup_codes;
  // The tails are bytes, cut anywhere: text from their first whole character.
  mt["stdout_tail"] = utf8_tail(run.out_tail);
  mt["stderr_tail"] = utf8_tail(run.err_tail);
  mt["stdout_bytes"] = run.out_bytes;
  mt["stderr_bytes"] = run.err_bytes;

  std::vector<std::string> flags = applied.flags;
  // The program is another process: a simulated board loads its cores and rails with it but
  // cannot slow it to the simulated clock.
  if (ctx.fidelity) flags.emplace_back("speed_not_simulated");
  put_into(mt, [&](row& x) {
    measure::put_window_flags(x, std::move(flags), ctx, res, applied, power_w.has_value(), "cpu", 0);
  });
  mt["stop_reason"] = to_string(run.timed_out ? measure::stop_reason::timeout : measure::stop_reason::program_exit);
  mt["unmet"] = json::array();
  r.run_s = wall_s;
  r.cost = run_cost_of(spec);

  if (run.timed_out || run.term_signal || run.exit_code != 0) {
    r.status = "failed";
    mt["error"] = run.timed_out ? "timed out after " + std::to_string(spec.timeout_s) + " s (process group killed)"
                  : run.term_signal ? "ended by signal " + std::to_string(run.term_signal)
                                    : "exit status " + std::to_string(run.exit_code);
  }
  r.metrics = row_of(mt);
  return r;
}

json command_kind::summarize_json(const std::vector<json>& rows) const {
  // Per board setting: the runs' median wall time and energy, and each phase's mean time and
  // energy per run (the energy over the runs that have one; null when none had a power reading).
  struct phase_acc {
    std::size_t runs = 0, with_energy = 0;
    double time_s = 0, energy_j = 0;
  };
  struct setting_acc {
    json setting;
    std::vector<double> walls, energies;
    std::map<std::string, phase_acc> phases;
  };
  std::map<std::string, setting_acc> by_setting;
  for (const auto& row : rows) {
    if (row.value("status", std::string()) != "ok") continue;
    const auto& metrics = row.at("metrics");
    auto setting = jetperf::to_json(measure::setting_record(measure::setting_of_point(record_of(row.at("params")))));
    auto& acc = by_setting[setting.dump()];
    acc.setting = std::move(setting);
    acc.walls.push_back(metrics.value("wall_s", 0.0));
    if (metrics.contains("energy_j") && metrics["energy_j"].is_number()) acc.energies.push_back(metrics["energy_j"]);
    const auto phases = metrics.value("phases", json::object());
    for (const auto& [name, ph] : phases.items()) {
      auto& f = acc.phases[name];
      ++f.runs;
      f.time_s += ph.value("time_s", 0.0);
      if (ph.contains("energy_j") && ph["energy_j"].is_number()) {
        ++f.with_energy;
        f.energy_j += ph["energy_j"].get<double>();
      }
    }
  }
  const auto median = [](const std::vector<double>& v) -> json {
    return v.empty() ? json() : json(measure::compute_latency_stats(v).median_s);
  };
  json settings = json::array();
  for (const auto& [key, acc] : by_setting) {
    json phases = json::object();
    for (const auto& [name, f] : acc.phases)
      phases[name] = {{"runs", f.runs},
                      {"time_mean_s", f.time_s / static_cast<double>(f.runs)},
                      {"energy_mean_j", f.with_energy ? json(f.energy_j / static_cast<double>(f.with_energy)) : json()}};
    settings.push_back({{"setting", acc.setting},
                        {"runs", acc.walls.size()},
                        {"wall_median_s", median(acc.walls)},
                        {"energy_median_j", median(acc.energies)},
                        {"phases", phases}});
  }
  return {{"settings", settings}};
}

}  // namespace

std::unique_ptr<jobs::workload> make_command_kind(command_policy policy) {
  return jobs::make_workload(command_kind(std::move(policy)));
}

}  // namespace jetperf::kinds
