#include <jetperf/telemetry/prometheus.hpp>

#include <cmath>
#include <cstdio>
#include <map>

#include <jetperf/telemetry/rail_role.hpp>

namespace jetperf::telemetry {
namespace {

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

struct family {
  const char* help;
  const char* type;
  std::vector<std::string> lines;
};

class writer {
 public:
  void add(const std::string& metric, const char* help, const char* type, const std::string& labels, double v,
           std::optional<std::int64_t> timestamp_ms = std::nullopt) {
    auto& f = families_[metric];
    f.help = help;
    f.type = type;
    f.lines.push_back(metric + (labels.empty() ? "" : "{" + labels + "}") + " " + number(v) +
                      (timestamp_ms ? " " + std::to_string(*timestamp_ms) : ""));
  }
  std::string str() const {
    std::string out;
    for (const auto& [name, f] : families_) {
      out += "# HELP " + name + " " + f.help + "\n# TYPE " + name + " " + f.type + "\n";
      for (const auto& l : f.lines) out += l + "\n";
    }
    return out;
  }

 private:
  std::map<std::string, family> families_;
};

std::string label(const char* key, const std::string& value) {
  return std::string(key) + "=\"" + prometheus_escape_label(value) + "\"";
}

// `rail` stays the first label (existing queries keep matching); `role` lets a fleet sum
// role="total" across families whose rails are named differently.
std::string rail_labels(const std::string& rail) { return label("rail", rail) + "," + label("role", rail_role(rail)); }

}  // namespace

std::string prometheus_escape_label(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string render_prometheus(const std::vector<channel_info>& channels,
                              const std::vector<std::optional<double>>& values,
                              std::optional<int> total_power_channel, const sampler_health& health,
                              const prometheus_job_state& job, const prometheus_energy& energy,
                              const std::optional<prometheus_build_info>& build,
                              const std::vector<prometheus_clock_floor>& floors) {
  writer w;
  const auto& joules = energy.totals.channel_joules;
  for (std::size_t i = 0; i < channels.size() && i < joules.size(); ++i) {
    if (channels[i].kind != channel_kind::power) continue;
    const std::string& n = channels[i].name;
    if (n.rfind("rail.", 0) == 0)
      w.add("jetperf_rail_energy_joules_total", "Energy of one rail since the daemon started, in joules.", "counter",
            rail_labels(n.substr(5)), joules[i], energy.timestamp_ms);
    if (energy.totals.total_channel && static_cast<std::size_t>(*energy.totals.total_channel) == i)
      w.add("jetperf_energy_joules_total", "Module total energy since the daemon started, in joules.", "counter", "",
            joules[i], energy.timestamp_ms);
  }
  for (const auto& j : energy.jobs) {
    std::string labels = label("job_id", std::to_string(j.job_id)) + "," + label("kind", j.kind);
    w.add("jetperf_job_energy_joules_total",
          "Module total energy while the job ran, in joules (the running job and the last finished one).", "counter",
          labels, j.joules, energy.timestamp_ms);
    if (j.progress_ratio)
      w.add("jetperf_job_progress_ratio", "Points done over points in the job (0..1).", "gauge", labels,
            *j.progress_ratio);
  }
  if (build) {
    w.add("jetperf_build_info", "Version of jetperfd and the board it serves; always 1.", "gauge",
          label("version", build->version) + "," + label("board", build->board) + "," + label("model", build->model) +
              "," + label("l4t", build->l4t) + "," + label("simulated", build->simulated ? "true" : "false"),
          1);
  }
  for (std::size_t i = 0; i < channels.size() && i < values.size(); ++i) {
    if (!values[i]) continue;
    const std::string& n = channels[i].name;
    double v = *values[i];
    auto suffix = [&](const char* prefix) { return n.substr(std::string(prefix).size()); };
    if (n.rfind("rail.", 0) == 0) {
      w.add("jetperf_rail_power_watts", "Power of one rail in watts.", "gauge", rail_labels(suffix("rail.")), v);
    } else if (n.rfind("clock.", 0) == 0) {
      double hz = channels[i].unit == "kHz" ? v * 1e3 : channels[i].unit == "MHz" ? v * 1e6 : v;
      w.add("jetperf_clock_hz", "Current clock frequency in hertz.", "gauge", label("domain", suffix("clock.")), hz);
    } else if (n.rfind("temp.", 0) == 0) {
      w.add("jetperf_temperature_celsius", "Temperature of a thermal zone in degrees Celsius.", "gauge",
            label("zone", suffix("temp.")), v);
    } else if (n.rfind("util.", 0) == 0) {
      w.add("jetperf_utilisation_ratio", "Busy fraction of a domain (0..1).", "gauge",
            label("domain", suffix("util.")), channels[i].unit == "%" ? v / 100.0 : v);
    }
    if (total_power_channel && static_cast<std::size_t>(*total_power_channel) == i) {
      w.add("jetperf_power_total_watts", "Module total power in watts (input rail or sum of rails).", "gauge", "", v);
    }
  }
  for (const auto& f : floors) {
    w.add("jetperf_clock_floor_hz", "Lowest frequency the board is set to run the clock at, in hertz.", "gauge",
          label("domain", f.domain), f.floor_hz);
    w.add("jetperf_clock_throttled",
          "1 while the clock reads more than 2% below its floor (thermal or over-current throttling).", "gauge",
          label("domain", f.domain), f.throttled() ? 1 : 0);
  }
  w.add("jetperf_sampler_running", "1 while the sampling thread runs.", "gauge", "", health.running ? 1 : 0);
  w.add("jetperf_sampler_period_seconds", "Sampling period with a job attached (a point's faster one while it asks).", "gauge", "", health.period_s);
  w.add("jetperf_sampler_idle_period_seconds", "Sampling period while no job runs.", "gauge", "",
        health.idle_period_s);
  w.add("jetperf_sampler_full_rate", "1 while sampling at the full period (a job attached).", "gauge", "",
        health.full_rate ? 1 : 0);
  w.add("jetperf_sampler_rate_hz", "Achieved rate at the full period (this stretch, or the last one while idle).",
        "gauge", "", health.achieved_rate_hz);
  // One label for the three figures: `quantile` is a summary's own label, which a gauge may not
  // carry (promtool check metrics refuses it).
  w.add("jetperf_sampler_jitter_seconds", "Wake-up lateness of recent ticks: mean, median (p50), 99th percentile (p99).",
        "gauge", label("stat", "mean"), health.jitter_mean_s);
  w.add("jetperf_sampler_jitter_seconds", "Wake-up lateness of recent ticks: mean, median (p50), 99th percentile (p99).",
        "gauge", label("stat", "p50"), health.jitter_p50_s);
  w.add("jetperf_sampler_jitter_seconds", "Wake-up lateness of recent ticks: mean, median (p50), 99th percentile (p99).",
        "gauge", label("stat", "p99"), health.jitter_p99_s);
  w.add("jetperf_sampler_ticks_total", "Ticks taken.", "counter", "", static_cast<double>(health.ticks));
  w.add("jetperf_sampler_missed_ticks_total", "Deadlines skipped because a tick overran.", "counter", "",
        static_cast<double>(health.missed_ticks));
  w.add("jetperf_sampler_samples_total", "Samples produced.", "counter", "", static_cast<double>(health.samples));
  w.add("jetperf_sampler_cpu_seconds_total", "CPU time of the sampling thread.", "counter", "", health.cpu_time_s);
  w.add("jetperf_sampler_cpu_ratio", "Sampling thread CPU time per second (1 = one core).", "gauge", "",
        health.cpu_share);
  std::string job_labels;
  if (job.running && job.job_id) {
    job_labels = label("job_id", std::to_string(*job.job_id));
    if (!job.kind.empty()) job_labels += "," + label("kind", job.kind);
  }
  w.add("jetperf_job_running", "1 while a job runs.", "gauge", job_labels, job.running ? 1 : 0);
  w.add("jetperf_jobs_queued", "Jobs waiting in the queue.", "gauge", "", static_cast<double>(job.queued));
  w.add("jetperf_jobs_completed_total", "Jobs finished successfully.", "counter", "", static_cast<double>(job.completed));
  w.add("jetperf_jobs_failed_total", "Jobs that failed.", "counter", "", static_cast<double>(job.failed));
  return w.str();
}

}  // namespace jetperf::telemetry
