#include <jetperf/api/attachment_analysis.hpp>

#include <algorithm>
#include <limits>
#include <cstdio>
#include <map>
#include <set>

#include <jetperf/api/csv_writer.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/traces/iterations.hpp>
#include <jetperf/traces/op_energy.hpp>
#include <jetperf/traces/overhead_model.hpp>
#include <jetperf/traces/record_function_labels.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace_alignment.hpp>

namespace jetperf::api {

namespace {

using nlohmann::json;

// Samples this far beyond the trace's ends are read too, for the interpolation at its edges.
constexpr std::int64_t k_margin_ns = 1'000'000'000;

// What a trace is checked against: the job's runs (a command's program runs; other kinds'
// measured runs, else their windows, else their points), each on the daemon's clock.
struct job_run {
  std::optional<std::int64_t> point;
  std::int64_t start_ns = 0, end_ns = 0;
};

traces::alignment_input alignment_input_of(const store::job_record& job, const store::timeline_store& timeline,
                                           std::optional<std::int64_t> offset_ns, std::vector<job_run>* runs) {
  traces::alignment_input in;
  in.offset_ns = offset_ns;
  store::timeline_query q;
  q.job_id = job.id;
  std::vector<store::timeline_span> clocks;
  std::map<std::string, std::vector<job_run>> by_track;
  for (auto& s : timeline.spans(q)) {
    if (s.track == "phases" && !s.args.value("unclosed", false) && s.t_end_ns >= s.t_start_ns)
      in.phases.push_back({s.name, s.t_start_ns, s.t_end_ns});
    else if (s.track == "clocks" && s.args.contains("realtime_ns"))
      clocks.push_back(std::move(s));
    else if ((s.track == "runs" || s.track == "windows" || s.track == "points") && s.t_end_ns > s.t_start_ns)
      by_track[s.track].push_back({s.point_index, s.t_start_ns, s.t_end_ns});
  }
  for (const char* track : {"runs", "windows", "points"})
    if (!by_track[track].empty()) {
      *runs = std::move(by_track[track]);
      break;
    }
  if (!clocks.empty()) {
    const auto diff = [](const store::timeline_span& s) { return s.args["realtime_ns"].get<std::int64_t>() - s.t_start_ns; };
    const auto width = [](const store::timeline_span& s) { return s.args.value("read_ns", std::int64_t{0}); };
    in.clocks = traces::clock_reference{diff(clocks.front()), diff(clocks.back()) - diff(clocks.front()),
                                        std::max(width(clocks.front()), width(clocks.back()))};
  }
  return in;
}

// The trace's span on the daemon's timeline, widened by `margin_ns` at both ends.
std::pair<std::int64_t, std::int64_t> span_of(const traces::trace& t, std::int64_t offset_ns, std::int64_t margin_ns) {
  std::int64_t from = std::numeric_limits<std::int64_t>::max(), to = std::numeric_limits<std::int64_t>::min();
  for (const auto& e : t.events) {
    from = std::min(from, e.ts_ns);
    to = std::max(to, e.end_ns());
  }
  if (from > to) return {0, -1};
  return {from + offset_ns - margin_ns, to + offset_ns + margin_ns};
}

bool is_input_rail(const std::string& rail) { return rail == "VDD_IN" || rail == "POM_5V_IN"; }

// The job's power samples over the trace: the module total ("power.total", or the input rail
// that already is the total) and every rail.
traces::power_inputs power_of(const store::job_record& job, const store::sample_store& samples,
                              std::pair<std::int64_t, std::int64_t> window, std::string* total_name) {
  traces::power_inputs p;
  if (window.first > window.second) return p;
  std::optional<time_series> input;
  for (const auto& c : samples.channels()) {
    if (c.unit != "W") continue;
    time_series s;
    for (const auto& row : samples.query(job.id, c.id, window.first, window.second)) s.emplace_back(row.t_ns, row.value);
    if (s.empty()) continue;
    if (c.name == "power.total") {
      *total_name = c.name;
      p.total = std::move(s);
    } else if (c.name.rfind("rail.", 0) == 0) {
      const auto rail = c.name.substr(5);
      if (is_input_rail(rail) && !input) {
        input = s;
        if (total_name->empty()) *total_name = c.name;
      }
      p.rails[rail] = std::move(s);
    }
  }
  if (!p.total && input) p.total = std::move(input);
  const auto& sensor = job.provenance.value("power_sensor", json::object());
  const auto period = sensor.value("update_period_s", json());
  if (period.is_number() && period.get<double>() > 0) p.sensor_period_ns = static_cast<std::int64_t>(period.get<double>() * 1e9);
  return p;
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(); }

// A span [from, to] on the daemon's clock.
using span_ns = std::pair<std::int64_t, std::int64_t>;

std::int64_t overlap(span_ns a, span_ns b) { return std::max<std::int64_t>(0, std::min(a.second, b.second) - std::max(a.first, b.first)); }

std::string ms(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

// Where a trace's markers may lie off the run's and still be its own (a datagram's latency is
// 0.1 ms; a foreign trace's phases scatter by whole steps).
constexpr std::int64_t k_max_marker_spread_ns = 10'000'000;
// Beyond the alignment's own uncertainty, how far past a run's ends a trace may reach.
constexpr std::int64_t k_run_margin_ns = 1'000'000;

// Whether the trace belongs to the job: which run it lies in, and every reason it does not.
struct verdict {
  std::optional<job_run> run;
  std::vector<std::string> reasons;
};

// Where the trace's own wall clock (Kineto's CLOCK_REALTIME stamps) puts it, beside its markers'
// match: a run of the same program at another time matches the markers' shape as well.
std::optional<traces::alignment> wall_clock_alignment(const traces::trace& t, traces::alignment_input in) {
  in.phases.clear();
  in.offset_ns.reset();
  try {
    auto wall = traces::align_trace(t, in);
    if (wall.method == traces::alignment_method::base_time) return wall;
  } catch (const validation_error&) {
  }
  return std::nullopt;
}

// How far the markers' and the wall clock's offsets may differ for one run: the job's clock
// readings and torch's own conversion of its fast clock to realtime.
constexpr std::int64_t k_max_clock_disagreement_ns = 50'000'000;

verdict verify(const traces::trace& t, const traces::alignment& a, const std::vector<job_run>& runs, span_ns trace_span,
               const traces::alignment_input& input) {
  verdict v;
  if (a.method == traces::alignment_method::markers) {
    if (const auto wall = wall_clock_alignment(t, input)) {
      const auto apart = std::llabs(wall->offset_ns - a.offset_ns);
      if (apart > k_max_clock_disagreement_ns + a.uncertainty_ns + wall->uncertainty_ns)
        v.reasons.push_back("the trace's own wall clock puts it " + ms(apart) +
                            " from where its phases match the job's markers: it is another run's");
    }
    if (a.trace_events > a.matched)
      v.reasons.push_back(std::to_string(a.trace_events - a.matched) + " of the trace's " + std::to_string(a.trace_events) +
                          " events named like the job's phases match none of the phases its markers saw");
    if (a.uncertainty_ns > k_max_marker_spread_ns)
      v.reasons.push_back("the trace's phases line up with the job's markers only within " + ms(a.uncertainty_ns) +
                          " (its own would within " + ms(k_max_marker_spread_ns) + ")");
  }
  if (runs.empty()) {
    v.reasons.push_back("the job has no runs on its timeline to check the trace against");
    return v;
  }
  const job_run* best = &runs.front();
  for (const auto& r : runs)
    if (overlap(trace_span, {r.start_ns, r.end_ns}) > overlap(trace_span, {best->start_ns, best->end_ns})) best = &r;
  if (overlap(trace_span, {best->start_ns, best->end_ns}) == 0) {
    // None overlaps: the nearest.
    const auto distance = [&](const job_run& r) {
      return std::max(r.start_ns - trace_span.second, trace_span.first - r.end_ns);
    };
    for (const auto& r : runs)
      if (distance(r) < distance(*best)) best = &r;
  }
  v.run = *best;
  const std::int64_t slack = a.uncertainty_ns + k_run_margin_ns;
  const std::int64_t before = best->start_ns - trace_span.first, after = trace_span.second - best->end_ns;
  if (before > slack || after > slack)
    v.reasons.push_back("the trace (" + ms(trace_span.second - trace_span.first) + " aligned by " +
                        traces::to_string(a.method) + ") reaches " + ms(std::max(before, after)) + " " +
                        (before > after ? "before the start" : "past the end") + " of the job's run" +
                        (best->point ? " (point " + std::to_string(*best->point) + ")" : std::string()) +
                        ": it was not recorded during it");
  return v;
}

// The intervals of the trace's top-level ops on the daemon's clock, merged.
std::vector<span_ns> covered_spans(const traces::trace& t, const traces::op_tree& tree, std::int64_t offset_ns) {
  std::vector<span_ns> spans;
  for (auto root : tree.roots) {
    const auto& e = t.events[tree.nodes[root].event];
    spans.emplace_back(e.ts_ns + offset_ns, e.end_ns() + offset_ns);
  }
  std::sort(spans.begin(), spans.end());
  std::vector<span_ns> merged;
  for (const auto& s : spans) {
    if (!merged.empty() && s.first <= merged.back().second) merged.back().second = std::max(merged.back().second, s.second);
    else merged.push_back(s);
  }
  return merged;
}

// How much of the run the trace's top-level ops cover, in time and in energy.
json coverage_of(const std::vector<span_ns>& covered, const job_run& run, const std::optional<time_series>& total) {
  const span_ns r{run.start_ns, run.end_ns};
  std::int64_t covered_ns = 0;
  double covered_j = 0;
  for (const auto& s : covered) {
    const span_ns in{std::max(s.first, r.first), std::min(s.second, r.second)};
    if (in.second <= in.first) continue;
    covered_ns += in.second - in.first;
    if (total && !total->empty()) covered_j += *interval_mean(*total, in.first, in.second) * static_cast<double>(in.second - in.first) * 1e-9;
  }
  const double run_s = static_cast<double>(r.second - r.first) * 1e-9;
  json out = {{"run_s", run_s},
              {"covered_s", static_cast<double>(covered_ns) * 1e-9},
              {"time_share", run_s > 0 ? static_cast<double>(covered_ns) * 1e-9 / run_s : 0.0},
              {"run_energy_j", nullptr},
              {"covered_energy_j", nullptr},
              {"energy_share", nullptr}};
  if (run.point) out["point"] = *run.point;
  if (total && !total->empty()) {
    const double run_j = *interval_mean(*total, r.first, r.second) * run_s;
    out["run_energy_j"] = run_j;
    out["covered_energy_j"] = covered_j;
    out["energy_share"] = run_j > 0 ? json(covered_j / run_j) : json();
  }
  return out;
}

// torch's legacy profiler writes record_function ranges with no "cat", like its ops: those named
// as ranges are (traces::mark_legacy_labels), and so are those named like the job's phases (the
// program wraps its marked phases in them, whatever it calls them).
void mark_legacy_labels(traces::trace& t, const std::vector<traces::reference_phase>& phases) {
  if (t.categorized) return;
  traces::mark_legacy_labels(t, traces::overhead_model{}.module_markers);
  std::set<std::string> names;
  for (const auto& p : phases) names.insert(p.name);
  std::vector<bool> is_phase(t.names.size());
  for (std::size_t i = 0; i < t.names.size(); ++i) is_phase[i] = names.count(t.names[i]) > 0;
  for (auto& e : t.events)
    if (e.category == traces::event_category::cpu_op && is_phase[e.name]) e.category = traces::event_category::user_annotation;
}

// The trace's iterations on the daemon's clock: how many, their host runtime (first start to
// last end) and the energy the total power gives over them (null without power).
json iterations_json(const traces::trace& t, const traces::op_tree& tree, const traces::iteration_rule& rule,
                     std::int64_t offset_ns, const std::optional<time_series>& total) {
  const auto found = traces::find_iterations(t, tree, rule);
  json out = {{"source", found.source}, {"count", found.iterations.size()}, {"host_runtime_s", nullptr},
              {"mean_s", nullptr},      {"energy_j", nullptr},                {"energy_per_iteration_j", nullptr}};
  if (found.iterations.empty()) return out;
  std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min(), busy = 0;
  double energy = 0;
  for (const auto& it : found.iterations) {
    const auto& e = t.events[it.event];
    first = std::min(first, e.ts_ns);
    last = std::max(last, e.end_ns());
    busy += e.dur_ns;
    if (total && !total->empty() && e.dur_ns > 0)
      energy += *interval_mean(*total, e.ts_ns + offset_ns, e.end_ns() + offset_ns) * static_cast<double>(e.dur_ns) * 1e-9;
  }
  const double n = static_cast<double>(found.iterations.size());
  out["host_runtime_s"] = static_cast<double>(last - first) * 1e-9;
  out["mean_s"] = static_cast<double>(busy) * 1e-9 / n;
  if (total && !total->empty()) {
    out["energy_j"] = energy;
    out["energy_per_iteration_j"] = energy / n;
  }
  return out;
}

json rows_json(const std::vector<traces::energy_row>& rows, bool unverified) {
  json out = json::array();
  for (const auto& r : rows) {
    out.push_back({{"name", r.name},
                   {"count", r.count},
                   {"time_s", r.time_s},
                   {"energy_j", opt(r.energy_j)},
                   {"power_w", opt(r.power_w)},
                   {"uncertainty_j", opt(r.uncertainty_j)},
                   {"rail_energy_j", r.rail_energy_j},
                   {"short_intervals", r.short_intervals},
                   {"outside_samples", r.outside_samples}});
    auto& row = out.back();
    if (r.self_time_s) {
      row["self_time_s"] = *r.self_time_s;
      row["self_energy_j"] = opt(r.self_energy_j);
    }
    if (r.label) row["label"] = true;
    if (r.folded_names > 0) row["folded_names"] = r.folded_names;
    if (unverified) row["unverified"] = true;
  }
  return out;
}

}  // namespace

attachment_result analyze_attachment(traces::trace& t, const store::job_record& job,
                                     const store::timeline_store& timeline, const store::sample_store* samples,
                                     std::optional<std::int64_t> offset_ns, bool force,
                                     const traces::iteration_rule& iterations) {
  std::vector<job_run> runs;
  const auto input = alignment_input_of(job, timeline, offset_ns, &runs);
  mark_legacy_labels(t, input.phases);
  const auto a = traces::align_trace(t, input);
  const auto trace_span = span_of(t, a.offset_ns, 0);
  const auto v = verify(t, a, runs, trace_span, input);
  if (!v.reasons.empty() && !force) {
    std::string why;
    for (const auto& r : v.reasons) why += (why.empty() ? "" : "; ") + r;
    throw validation_error("body",
                           "the trace does not belong to job " + std::to_string(job.id) + ": " + why +
                               " (force=true, jetperf trace attach --force, attaches it anyway, every figure marked "
                               "unverified)",
                           "foreign_trace");
  }
  attachment_result out;
  out.alignment = {{"method", traces::to_string(a.method)},
                   {"offset_ns", a.offset_ns},
                   {"uncertainty_ns", a.uncertainty_ns},
                   {"matched", a.matched},
                   {"trace_events", a.trace_events},
                   {"phases", a.phases},
                   {"detail", a.detail},
                   {"verified", v.reasons.empty()},
                   {"unverified_reasons", v.reasons}};
  std::string total_name;
  // The samples over the trace and over its run: coverage reads the run's energy.
  auto window = span_of(t, a.offset_ns, k_margin_ns);
  if (v.run) window = {std::min(window.first, v.run->start_ns - k_margin_ns), std::max(window.second, v.run->end_ns + k_margin_ns)};
  const auto power = samples ? power_of(job, *samples, window, &total_name) : traces::power_inputs{};
  traces::energy_table table;
  json coverage, iteration_summary;
  {
    // The tree goes before the rows are written: for a trace of many names it is a good part of
    // the memory the request takes.
    const auto tree = traces::build_op_tree(t);
    table = traces::attribute_energy(t, tree, a, power);
    if (v.run) coverage = coverage_of(covered_spans(t, tree, a.offset_ns), *v.run, power.total);
    iteration_summary = iterations_json(t, tree, iterations, a.offset_ns, power.total);
  }
  const bool unverified = !v.reasons.empty();
  out.energy = {{"sensor_period_s", static_cast<double>(table.sensor_period_ns) * 1e-9},
                {"channel", total_name.empty() ? json() : json(total_name)},
                {"coverage", coverage},
                {"iterations", iteration_summary},
                {"ops", rows_json(table.ops, unverified)},
                {"top_level", rows_json(table.top_level, unverified)},
                {"kernels", rows_json(table.kernels, unverified)}};
  return out;
}

std::string attachment_energy_csv(const json& energy) {
  static const char* k_tables[] = {"top_level", "ops", "kernels"};
  std::set<std::string> rails;
  for (const char* name : k_tables)
    for (const auto& r : energy.value(name, json::array())) {
      // Bound first: items() of the temporary value() returns would outlive it.
      const auto rail_j = r.value("rail_energy_j", json::object());
      for (const auto& kv : rail_j.items()) rails.insert(kv.key());
    }
  std::string out =
      "table,name,count,time_s,energy_j,power_w,uncertainty_j,short_intervals,outside_samples,self_time_s,self_energy_j,"
      "label,unverified";
  for (const auto& rail : rails) out += "," + csv_quote("rail_" + rail + "_j");
  out += "\r\n";
  for (const char* name : k_tables) {
    for (const auto& r : energy.value(name, json::array())) {
      out += std::string(name) + "," + csv_field(r["name"]);
      for (const char* k : {"count", "time_s", "energy_j", "power_w", "uncertainty_j", "short_intervals", "outside_samples",
                            "self_time_s", "self_energy_j"})
        out += "," + csv_field(r.value(k, json()));
      out += std::string(",") + (r.value("label", false) ? "true" : "false") + "," +
             (r.value("unverified", false) ? "true" : "false");
      const auto rail_j = r.value("rail_energy_j", json::object());
      for (const auto& rail : rails) out += "," + (rail_j.contains(rail) ? csv_field(rail_j[rail]) : std::string());
      out += "\r\n";
    }
  }
  return out;
}

}  // namespace jetperf::api
