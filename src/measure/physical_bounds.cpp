#include <jetperf/measure/physical_bounds.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace jetperf::measure {

namespace {

// Whole numbers (clocks) in full, others to four significant digits.
std::string number_text(double v) {
  char text[32];
  if (v == std::floor(v) && std::abs(v) < 1e15) std::snprintf(text, sizeof text, "%.0f", v);
  else std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

bound_violation violation(physical_bound b, std::string figure, double value, double limit, std::string unit,
                          std::string against = {}) {
  return {b, std::move(figure), value, limit, std::move(unit), std::move(against)};
}

// One clock against its offered steps' range and its cap.
void check_clock(const std::optional<std::int64_t>& value, const std::vector<std::int64_t>& steps,
                 const std::optional<std::int64_t>& cap, const char* figure, const char* unit,
                 std::vector<bound_violation>& out) {
  if (!value || *value <= 0) return;
  const auto v = static_cast<double>(*value);
  if (cap && *cap > 0 && v > static_cast<double>(*cap) * (1 + k_clock_bound_tolerance))
    out.push_back(violation(physical_bound::clock_above_cap, figure, v, static_cast<double>(*cap), unit,
                            "the power mode's cap"));
  if (steps.empty()) return;
  const auto [lo, hi] = std::minmax_element(steps.begin(), steps.end());
  if (v > static_cast<double>(*hi) * (1 + k_clock_bound_tolerance))
    out.push_back(violation(physical_bound::clock_outside_offered, figure, v, static_cast<double>(*hi), unit,
                            "the highest step offered"));
  else if (v < static_cast<double>(*lo) * (1 - k_clock_bound_tolerance))
    out.push_back(violation(physical_bound::clock_outside_offered, figure, v, static_cast<double>(*lo), unit,
                            "the lowest step offered"));
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

}  // namespace

const char* to_string(physical_bound b) {
  switch (b) {
    case physical_bound::clock_above_cap: return "clock_above_cap";
    case physical_bound::clock_outside_offered: return "clock_outside_offered";
    case physical_bound::power_negative: return "power_negative";
    case physical_bound::energy_negative: return "energy_negative";
    case physical_bound::rail_above_total: return "rail_above_total";
    case physical_bound::rails_above_input: return "rails_above_input";
    case physical_bound::sensor_delay_negative: return "sensor_delay_negative";
    case physical_bound::sensor_window_too_long: return "sensor_window_too_long";
    case physical_bound::sensor_period_off_chip: return "sensor_period_off_chip";
    case physical_bound::layer_energy_sum_off_run: return "layer_energy_sum_off_run";
  }
  return "unknown";
}

std::string bound_violation::text() const {
  const std::string u = unit.empty() ? "" : " " + unit;
  const char* op = value > limit ? " > " : " < ";
  std::string out = figure + " " + number_text(value) + u + op + number_text(limit) + u;
  if (!against.empty()) out += " (" + against + ")";
  return out;
}

clock_limits clock_limits_of(const platform::board_offer& offer) {
  clock_limits l;
  l.gpu_freqs_hz = offer.gpu_freqs_hz;
  l.cpu_freqs_khz = offer.cpu_freqs_khz;
  l.emc_freqs_hz = offer.emc_freqs_hz;
  return l;
}

std::vector<bound_violation> check_clocks(const platform::board_setting& ran_at, const clock_limits& limits) {
  std::vector<bound_violation> out;
  check_clock(ran_at.gpu_freq_hz, limits.gpu_freqs_hz, limits.gpu_cap_hz, "gpu_freq_hz", "Hz", out);
  check_clock(ran_at.cpu_freq_khz, limits.cpu_freqs_khz, limits.cpu_cap_khz, "cpu_freq_khz", "kHz", out);
  check_clock(ran_at.emc_freq_hz, limits.emc_freqs_hz, limits.emc_cap_hz, "emc_freq_hz", "Hz", out);
  return out;
}

std::optional<bound_violation> check_power(const std::string& figure, double watts, bool rail) {
  const double floor = rail ? -k_rail_offset_w : 0.0;
  if (!(watts < floor)) return std::nullopt;
  return violation(physical_bound::power_negative, figure, watts, floor, "W");
}

std::optional<bound_violation> check_energy(const std::string& figure, double joules) {
  if (!(joules < 0)) return std::nullopt;
  return violation(physical_bound::energy_negative, figure, joules, 0, "J");
}

std::vector<bound_violation> check_rails(const std::vector<std::pair<std::string, double>>& rails, double total_w,
                                         const std::string& total_figure,
                                         const std::optional<std::string>& input_rail) {
  std::vector<bound_violation> out;
  const auto ceiling = [](double w) { return w * (1 + k_rail_excess_rel) + k_rail_excess_w; };
  double others = 0;
  std::size_t counted = 0;
  for (const auto& [name, w] : rails) {
    if (input_rail && name == *input_rail) continue;
    if (w > ceiling(total_w))
      out.push_back(violation(physical_bound::rail_above_total, name, w, ceiling(total_w), "W", total_figure));
    others += w;
    ++counted;
  }
  // Where the total is a computed sum, the rails add up to it by construction.
  if (input_rail && counted > 1 && others > ceiling(total_w))
    out.push_back(violation(physical_bound::rails_above_input, "the other rails' sum", others, ceiling(total_w), "W",
                            total_figure));
  return out;
}

std::optional<bound_violation> check_layer_energy_sum(double layers_sum_j, double run_j) {
  if (!(run_j > 0) || !std::isfinite(layers_sum_j)) return std::nullopt;
  const double ratio = layers_sum_j / run_j;
  if (ratio >= k_layer_sum_low && ratio <= k_layer_sum_high) return std::nullopt;
  const double limit = ratio < k_layer_sum_low ? k_layer_sum_low : k_layer_sum_high;
  return violation(physical_bound::layer_energy_sum_off_run, "layer_energy_sum_j / energy_j", ratio, limit, "",
                   "the layers' energies against the run's " + number_text(run_j) + " J");
}

std::vector<std::vector<bound_violation>> check_sensor_channels(const std::vector<channel_timing>& channels) {
  std::vector<std::vector<bound_violation>> out(channels.size());
  std::map<std::string, std::vector<double>> periods;  // by chip, the fitted ones
  for (const auto& c : channels)
    if (!c.chip.empty() && c.period_s > 0) periods[c.chip].push_back(c.period_s);
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const auto& c = channels[i];
    auto& v = out[i];
    if (c.delay_s && c.period_s > 0 && *c.delay_s < -k_delay_slack_periods * c.period_s)
      v.push_back(violation(physical_bound::sensor_delay_negative, "delay", *c.delay_s * 1e3, 0, "ms"));
    if (c.window_s && c.period_s > 0 && *c.window_s > 2 * c.period_s * (1 + k_window_slack))
      v.push_back(violation(physical_bound::sensor_window_too_long, "window", *c.window_s * 1e3, 2 * c.period_s * 1e3,
                            "ms", "two update periods"));
    const auto chip = periods.find(c.chip);
    if (c.chip.empty() || c.period_s <= 0 || chip == periods.end() || chip->second.size() < 2) continue;
    const double chip_period = median_of(chip->second);
    if (std::abs(c.period_s - chip_period) > k_chip_period_tolerance * chip_period)
      v.push_back(violation(physical_bound::sensor_period_off_chip, "update period", c.period_s * 1e3,
                            chip_period * 1e3, "ms", "its chip's"));
  }
  return out;
}

std::string sensor_chip_of(const std::string& source) {
  if (source.empty() || source.front() != '/') return {};
  const auto first = source.substr(0, source.find(' '));
  const auto slash = first.rfind('/');
  return slash == 0 || slash == std::string::npos ? std::string() : first.substr(0, slash);
}

}  // namespace jetperf::measure
