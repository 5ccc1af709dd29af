#include <jetperf/sim/tegrastats_sampler.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <jetperf/platform/engine_clocks.hpp>
#include <jetperf/sim/board_tree.hpp>

#include "file_io.hpp"

namespace jetperf::sim {
namespace {

long long meminfo_kb(const std::string& text, const std::string& key) {
  auto pos = text.find(key + ":");
  if (pos == std::string::npos) return 0;
  return std::atoll(text.c_str() + pos + key.size() + 1);
}

}  // namespace

std::string format_celsius(long long m) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(m) / 1000.0);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

tegrastats_sampler::tegrastats_sampler(const board_profile& profile, std::string root, std::string proc_dir)
    : profile_(profile), root_(std::move(root)), proc_(std::move(proc_dir)), stat_(root_ + "/proc/stat") {
  stat_.sample();
}

std::string tegrastats_zone_name(const std::string& zone_type) {
  static const std::string suffix = "-thermal";
  if (zone_type.size() > suffix.size() && zone_type.compare(zone_type.size() - suffix.size(), suffix.size(), suffix) == 0)
    return zone_type.substr(0, zone_type.size() - suffix.size());
  return zone_type;
}

std::optional<long long> tegrastats_sampler::engine_mhz(const std::string& field) const {
  const auto files = platform::engine_clock_paths(profile_.soc, platform::engine_clock_name(field));
  if (!files.enable.empty() && detail::read_ll(root_ + files.enable).value_or(0) == 0) return std::nullopt;
  const auto hz = detail::read_ll(root_ + files.rate);
  if (!hz) return std::nullopt;
  return *hz / 1'000'000;
}

void tegrastats_sampler::gpu_fields(std::ostream& o, bool root_form) const {
  const auto& p = profile_;
  auto ll = [&](const std::string& board_path) { return detail::read_ll(root_ + board_path).value_or(0); };
  // Thor has no load file: GR3D_FREQ carries its clocks only, and only as root.
  if (p.gr3d_load) o << " GR3D_FREQ " << ll(p.gpu_device_dir + "/load") / 10 << '%';
  else if (root_form) o << " GR3D_FREQ ";
  if (root_form) {
    if (p.gr3d_array) {
      o << "@[";
      for (size_t g = 0; g < p.gpu_clock_debugfs.size(); ++g) o << (g ? "," : "") << ll(p.gpu_clock_debugfs[g]) / 1000000;
      // No clock file per GPC (Thor): each GPC at the devfreq clock.
      if (p.gpu_clock_debugfs.empty())
        for (int g = 0; g < p.gpu_gpcs; ++g) o << (g ? "," : "") << ll(p.gpu_devfreq_dir + "/cur_freq") / 1000000;
      o << ']';
    } else if (!p.gpu_clock_debugfs.empty()) {
      o << '@' << ll(p.gpu_clock_debugfs.front()) / 1000000;
    }
    // The engines as the board tree has them (board_tree.cpp's write_engines), so that tegrastats
    // and the daemon's own debugfs reads agree.
    for (const auto& engine : p.engines_off) {
      const auto mhz = engine_mhz(engine);
      if (std::find(p.engines_at_freq.begin(), p.engines_at_freq.end(), engine) != p.engines_at_freq.end())
        o << ' ' << engine << " @" << mhz.value_or(0);
      else
        o << ' ' << engine << ' ' << (mhz ? std::to_string(*mhz) : std::string("off"));
    }
    // A gated VIC is left out, as r32 leaves out an idle engine [assumed for r36].
    if (p.vic_field)
      if (const auto mhz = engine_mhz("VIC_FREQ")) o << " VIC_FREQ " << *mhz;
    o << " APE " << engine_mhz("APE").value_or(p.ape_mhz);
    if (p.mts) o << " MTS fg 0% bg 0%";
  }
}

void tegrastats_sampler::zone_fields(std::ostream& o) {
  const auto& p = profile_;
  for (size_t i = 0; i < p.zones.size(); ++i) {
    const long long m =
        detail::read_ll(root_ + "/sys/devices/virtual/thermal/thermal_zone" + std::to_string(i) + "/temp").value_or(-256000);
    if (m == -256000 && p.omit_offline_zones) continue;
    // JetPack 7.2 prints the maximum seen beside the current value (jtop's test_06 line, the
    // r39.2 lines in tests/fixtures).
    auto& seen = zone_max_[p.zones[i].type];
    seen = std::max(seen, m);
    o << ' ' << tegrastats_zone_name(p.zones[i].type) << '@' << format_celsius(m) << 'C';
    if (p.temp_max) o << '/' << format_celsius(m == -256000 ? m : seen) << 'C';
  }
}

std::string tegrastats_sampler::line(bool root_form, std::time_t now) {
  const auto& p = profile_;
  auto ll = [&](const std::string& board_path, long long dflt) {
    return detail::read_ll(root_ + board_path).value_or(dflt);
  };
  std::ostringstream o;
  if (p.timestamp) {
    char ts[32];
    std::tm tm{};
    localtime_r(&now, &tm);
    std::strftime(ts, sizeof ts, "%m-%d-%Y %H:%M:%S ", &tm);
    o << ts;
  }
  // Memory: the host's usage fraction scaled to the board's RAM.
  const std::string mem = detail::read_text(proc_ + "/meminfo").value_or("");
  const double total_kb = std::max<double>(1, static_cast<double>(meminfo_kb(mem, "MemTotal")));
  const double avail_kb = static_cast<double>(meminfo_kb(mem, "MemAvailable"));
  const double used_frac = std::clamp(1.0 - avail_kb / total_kb, 0.0, 1.0);
  const long long ram_used = std::llround(used_frac * p.ram_total_mb);
  const long long lfb = std::clamp<long long>((p.ram_total_mb - ram_used) / 8, 1, 2048);
  o << "RAM " << ram_used << '/' << p.ram_total_mb << "MB (lfb " << lfb << "x4MB)";
  if (p.swap_total_mb > 0) {
    const long long swap_used_kb = meminfo_kb(mem, "SwapTotal") - meminfo_kb(mem, "SwapFree");
    const long long swap_used = std::min<long long>(std::max<long long>(swap_used_kb / 1024, 0), p.swap_total_mb);
    o << " SWAP " << swap_used << '/' << p.swap_total_mb << "MB (cached 0MB)";
  }
  if (root_form && p.iram) o << " IRAM 0/252kB(lfb 252kB)";

  const auto host = stat_.sample();
  o << " CPU [";
  int core = 0;
  for (int i = 0; i < p.core_count(); ++i, ++core) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(i);
    if (i) o << ',';
    if (ll(dir + "/online", 1) == 0) {
      o << "off";
      continue;
    }
    const double u = host.empty() ? 0.0 : host[static_cast<size_t>(i) % host.size()];
    o << std::lround(u * 100) << "%@" << ll(dir + "/cpufreq/scaling_cur_freq", 0) / 1000;
  }
  o << ']';

  if (!p.emc_rate_path.empty()) {
    const long long emc_hz = ll(p.emc_rate_path, 0);
    const long long mc_all = ll("/sys/kernel/actmon_avg_activity/mc_all", 0);
    const long long emc_pct = emc_hz > 0 ? std::clamp<long long>(mc_all * 100 / (emc_hz / 1000), 0, 100) : 0;
    o << " EMC_FREQ " << emc_pct << '%';
    if (root_form) o << '@' << emc_hz / 1000000;
  }
  gpu_fields(o, root_form);
  zone_fields(o);

  std::vector<long long> now_mw;
  for (const auto& chip : p.ina) {
    const std::string dir = rail_dir(p, "", chip);
    for (size_t k = 0; k < chip.channels.size(); ++k) {
      long long mw;
      if (p.hwmon_rails) {
        const std::string ks = std::to_string(k + 1);
        mw = ll(dir + "/in" + ks + "_input", 0) * ll(dir + "/curr" + ks + "_input", 0) / 1000;
      } else {
        mw = ll(dir + "/in_power" + std::to_string(k) + "_input", 0);
      }
      now_mw.push_back(mw);
    }
  }
  for (const auto& chip : p.ina238) now_mw.push_back(ll(ina238_dir(chip) + "/power1_input", 0) / 1000);
  rail_sum_.resize(now_mw.size(), 0.0);
  ++samples_;
  rail_max_.resize(now_mw.size(), 0);
  std::vector<std::string> labels;
  for (const auto& chip : p.ina)
    for (const auto& ch : chip.channels) labels.push_back(ch.label);
  for (size_t k = 0; k < p.ina238.size(); ++k) labels.push_back("VIN");
  for (size_t r = 0; r < labels.size(); ++r) {
    rail_sum_[r] += static_cast<double>(now_mw[r]);
    rail_max_[r] = std::max(rail_max_[r], now_mw[r]);
    const long long avg = std::llround(rail_sum_[r] / static_cast<double>(samples_));
    o << ' ' << labels[r] << ' ' << now_mw[r] << (p.rail_mw_suffix ? "mW/" : "/") << avg
      << (p.rail_mw_suffix ? "mW" : "");
    if (p.rail_max) o << '/' << rail_max_[r] << "mW";
  }
  return o.str();
}

}  // namespace jetperf::sim
