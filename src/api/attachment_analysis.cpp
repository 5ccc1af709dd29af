#include <jetperf/api/attachment_analysis.hpp>

#include <algorithm>
#include <limits>
#include <set>

#include <jetperf/api/csv_writer.hpp>
#include <jetperf/traces/op_energy.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace_alignment.hpp>

namespace jetperf::api {

namespace {

using nlohmann::json;

// Samples this far beyond the trace's ends are read too, for the interpolation at its edges.
constexpr std::int64_t k_margin_ns = 1'000'000'000;

traces::alignment_input alignment_input_of(const store::job_record& job, const store::timeline_store& timeline,
                                           std::optional<std::int64_t> offset_ns) {
  traces::alignment_input in;
  in.offset_ns = offset_ns;
  store::timeline_query q;
  q.job_id = job.id;
  std::vector<store::timeline_span> clocks;
  for (auto& s : timeline.spans(q)) {
    if (s.track == "phases" && !s.args.value("unclosed", false) && s.t_end_ns >= s.t_start_ns)
      in.phases.push_back({s.name, s.t_start_ns, s.t_end_ns});
    else if (s.track == "clocks" && s.args.contains("realtime_ns"))
      clocks.push_back(std::move(s));
  }
  if (!clocks.empty()) {
    const auto diff = [](const store::timeline_span& s) { return s.args["realtime_ns"].get<std::int64_t>() - s.t_start_ns; };
    const auto width = [](const store::timeline_span& s) { return s.args.value("read_ns", std::int64_t{0}); };
    in.clocks = traces::clock_reference{diff(clocks.front()), diff(clocks.back()) - diff(clocks.front()),
                                        std::max(width(clocks.front()), width(clocks.back()))};
  }
  return in;
}

// The trace's span on the daemon's timeline.
std::pair<std::int64_t, std::int64_t> span_of(const traces::trace& t, std::int64_t offset_ns) {
  std::int64_t from = std::numeric_limits<std::int64_t>::max(), to = std::numeric_limits<std::int64_t>::min();
  for (const auto& e : t.events) {
    from = std::min(from, e.ts_ns);
    to = std::max(to, e.end_ns());
  }
  if (from > to) return {0, -1};
  return {from + offset_ns - k_margin_ns, to + offset_ns + k_margin_ns};
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

json rows_json(const std::vector<traces::energy_row>& rows) {
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
    if (r.folded_names > 0) out.back()["folded_names"] = r.folded_names;
  }
  return out;
}

}  // namespace

attachment_result analyze_attachment(const traces::trace& t, const store::job_record& job,
                                     const store::timeline_store& timeline, const store::sample_store* samples,
                                     std::optional<std::int64_t> offset_ns) {
  const auto a = traces::align_trace(t, alignment_input_of(job, timeline, offset_ns));
  attachment_result out;
  out.alignment = {{"method", traces::to_string(a.method)},
                   {"offset_ns", a.offset_ns},
                   {"uncertainty_ns", a.uncertainty_ns},
                   {"matched", a.matched},
                   {"trace_events", a.trace_events},
                   {"phases", a.phases},
                   {"detail", a.detail}};
  std::string total_name;
  const auto power = samples ? power_of(job, *samples, span_of(t, a.offset_ns), &total_name) : traces::power_inputs{};
  const auto table = traces::attribute_energy(t, traces::build_op_tree(t), a, power);
  out.energy = {{"sensor_period_s", static_cast<double>(table.sensor_period_ns) * 1e-9},
                {"channel", total_name.empty() ? json() : json(total_name)},
                {"ops", rows_json(table.ops)},
                {"top_level", rows_json(table.top_level)},
                {"kernels", rows_json(table.kernels)}};
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
  std::string out = "table,name,count,time_s,energy_j,power_w,uncertainty_j,short_intervals,outside_samples";
  for (const auto& rail : rails) out += "," + csv_quote("rail_" + rail + "_j");
  out += "\r\n";
  for (const char* name : k_tables) {
    for (const auto& r : energy.value(name, json::array())) {
      out += std::string(name) + "," + csv_field(r["name"]);
      for (const char* k : {"count", "time_s", "energy_j", "power_w", "uncertainty_j", "short_intervals", "outside_samples"})
        out += "," + csv_field(r.value(k, json()));
      const auto rail_j = r.value("rail_energy_j", json::object());
      for (const auto& rail : rails) out += "," + (rail_j.contains(rail) ? csv_field(rail_j[rail]) : std::string());
      out += "\r\n";
    }
  }
  return out;
}

}  // namespace jetperf::api
