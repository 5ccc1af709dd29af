#include <jetperf/measure/protocols/phases.hpp>

namespace jetperf::measure {

namespace {

double seconds_of(const phase_interval& iv) { return static_cast<double>(iv.t_end_ns - iv.t_start_ns) * 1e-9; }

}  // namespace

phases_protocol::phases_protocol(const std::vector<telemetry::channel_info>& channels,
                                 const std::vector<telemetry::sample>& samples, std::optional<int> total_channel,
                                 std::optional<double> idle_w)
    : channels_(channels), series_(series_by_channel(samples)), idle_w_(idle_w) {
  if (!total_channel) return;
  if (const auto it = series_.find(*total_channel); it != series_.end()) total_ = &it->second;
}

phases_result phases_protocol::operator()(const std::vector<phase_interval>& intervals) const {
  phases_result out;
  for (const auto& iv : intervals) {
    auto& f = out.phases[iv.name];
    ++f.count;
    if (!iv.closed) ++f.unclosed;
    f.time_s += seconds_of(iv);
    integrate_total(iv, f);
    integrate_rails(iv, f);
  }
  for (auto& kv : out.phases) mean_powers(kv.second);
  return out;
}

// The total power's energy over the interval (and above idle), and its samples inside it.
void phases_protocol::integrate_total(const phase_interval& iv, phase_figures& f) const {
  if (!total_) return;
  const double dt = seconds_of(iv);
  if (auto mean = interval_mean(*total_, iv.t_start_ns, iv.t_end_ns)) {
    f.energy_j = f.energy_j.value_or(0) + *mean * dt;
    if (idle_w_) f.dynamic_energy_j = f.dynamic_energy_j.value_or(0) + (*mean - *idle_w_) * dt;
  }
  f.samples += points_within(*total_, iv.t_start_ns, iv.t_end_ns);
}

// Each rail's energy over the interval (the channels named rail.NAME).
void phases_protocol::integrate_rails(const phase_interval& iv, phase_figures& f) const {
  const double dt = seconds_of(iv);
  for (const auto& kv : series_) {
    const auto& c = channels_.at(static_cast<std::size_t>(kv.first));
    if (c.name.rfind("rail.", 0) != 0) continue;
    if (auto mean = interval_mean(kv.second, iv.t_start_ns, iv.t_end_ns)) f.rail_energy_j[c.name.substr(5)] += *mean * dt;
  }
}

// The phase's mean powers: its energies over its time (none for a phase of no time).
void phases_protocol::mean_powers(phase_figures& f) {
  if (f.time_s <= 0) return;
  if (f.energy_j) f.power_w = *f.energy_j / f.time_s;
  for (const auto& r : f.rail_energy_j) f.rail_power_w[r.first] = r.second / f.time_s;
}

}  // namespace jetperf::measure
