#include <jetperf/telemetry/tegrastats_channels.hpp>

#include <algorithm>
#include <cmath>

#include <jetperf/platform/engine_clocks.hpp>

namespace jetperf::telemetry {
namespace {

bool is_input_rail(const std::string& n) { return n == "VDD_IN" || n == "POM_5V_IN"; }

// An engine's clock (MHz, or `off`: 0 Hz, as engine_sensor reads a gated clock); MTS prints its
// foreground and background shares instead.
bool is_engine_clock(const tegrastats_engine& e) { return !e.fg_pct && !e.bg_pct && e.name != "MTS"; }

// Calls f(channel name, value) for every value a record carries.
template <typename F>
void for_each_value(const tegrastats_record& r, F&& f) {
  for (const auto& rail : r.rails) {
    if (rail.name != "NC") f("rail." + rail.name, rail.cur_mw / 1000.0);
  }
  if (!r.gpu_freq_mhz.empty()) {
    // Two GPCs of one GPU (README 10.5) run at one clock; report the faster.
    f("clock.gpu", *std::max_element(r.gpu_freq_mhz.begin(), r.gpu_freq_mhz.end()) * 1e6);
  }
  if (r.gpu_util_pct) f("util.gpu", *r.gpu_util_pct);
  if (r.emc_freq_mhz) f("clock.emc", *r.emc_freq_mhz * 1e6);
  if (r.emc_util_pct) f("util.emc", *r.emc_util_pct);
  for (std::size_t i = 0; i < r.cpus.size(); ++i) {
    std::string n = std::to_string(i);
    if (r.cpus[i].freq_mhz) f("clock.cpu" + n, *r.cpus[i].freq_mhz * 1e6);
    if (r.cpus[i].util_pct) f("util.cpu" + n, *r.cpus[i].util_pct);
  }
  for (const auto& t : r.temps) {
    if (t.celsius) f("temp." + t.name, *t.celsius);
    if (t.max_celsius) f("temp_max." + t.name, *t.max_celsius);
  }
  for (const auto& e : r.engines)
    if (is_engine_clock(e)) f("clock." + platform::engine_clock_name(e.name), e.freq_mhz ? *e.freq_mhz * 1e6 : 0.0);
}

}  // namespace

void tegrastats_channels::add(const std::string& name, const char* unit, channel_kind kind) {
  if (index_.count(name)) return;
  index_[name] = static_cast<int>(channels_.size());
  channels_.push_back({name, unit, kind, "tegrastats"});
}

tegrastats_channels::tegrastats_channels(const tegrastats_record& first) {
  bool input = false;
  for (const auto& rail : first.rails) {
    if (rail.name == "NC") continue;
    add("rail." + rail.name, "W", channel_kind::power);
    if (is_input_rail(rail.name) && !total_) {
      total_ = index_["rail." + rail.name];
      input = true;
    }
  }
  if (!first.rails.empty() && !input) {
    add("power.total", "W", channel_kind::power);
    total_ = index_["power.total"];
    computed_total_ = true;
  }
  // Offline sensors and off cores still get a channel: they come back online.
  if (!first.gpu_freq_mhz.empty()) add("clock.gpu", "Hz", channel_kind::clock);
  if (first.gpu_util_pct) add("util.gpu", "%", channel_kind::utilisation);
  if (first.emc_freq_mhz) add("clock.emc", "Hz", channel_kind::clock);
  if (first.emc_util_pct) add("util.emc", "%", channel_kind::utilisation);
  for (std::size_t i = 0; i < first.cpus.size(); ++i) {
    add("clock.cpu" + std::to_string(i), "Hz", channel_kind::clock);
    add("util.cpu" + std::to_string(i), "%", channel_kind::utilisation);
  }
  for (const auto& t : first.temps) {
    if (t.name.rfind("PMIC", 0) == 0) continue;  // a fixed trip value, not a measurement
    add("temp." + t.name, "C", channel_kind::temperature);
  }
  // JetPack 7 prints `name@cur/maxC`: a line in that form gives every zone its maximum too (an
  // offline zone's comes back with it). The maximum is tegrastats' since it started, not a
  // reading of now: kind `other`, so that no window's hottest temperature and no thermal guard
  // takes it for one.
  const bool with_max = std::any_of(first.temps.begin(), first.temps.end(),
                                    [](const tegrastats_temp& t) { return t.max_celsius.has_value(); });
  for (const auto& t : first.temps)
    if (with_max && t.name.rfind("PMIC", 0) != 0) add("temp_max." + t.name, "C", channel_kind::other);
  for (const auto& e : first.engines)
    if (is_engine_clock(e)) add("clock." + platform::engine_clock_name(e.name), "Hz", channel_kind::clock);
}

void tegrastats_channels::values(const tegrastats_record& r, double* values) const {
  std::fill(values, values + channels_.size(), std::nan(""));
  double sum = 0;
  for_each_value(r, [&](const std::string& name, double v) {
    auto it = index_.find(name);
    if (it != index_.end()) values[it->second] = v;
    if (name.rfind("rail.", 0) == 0) sum += v;
  });
  if (computed_total_ && !r.rails.empty()) values[*total_] = sum;
}

}  // namespace jetperf::telemetry
