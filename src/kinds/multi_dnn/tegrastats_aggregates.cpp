#include <jetperf/kinds/multi_dnn/tegrastats_aggregates.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include <jetperf/platform/engine_clocks.hpp>

namespace jetperf::kinds {

namespace {

using stats_by_name = std::map<std::string, const measure::channel_summary*>;

// Two decimals, as the seed's processed files round.
double round2(double v) { return std::round(v * 100.0) / 100.0; }

record min_max_avg(const measure::channel_summary& s, double scale) {
  return {{"min", round2(s.min * scale)}, {"max", round2(s.max * scale)}, {"avg", round2(s.mean * scale)}};
}

// Per-core lists ordered by core number from channels "<prefix><n>".
record per_core(const stats_by_name& stats, const std::string& prefix, double scale) {
  std::map<int, const measure::channel_summary*> cores;
  for (const auto& [name, s] : stats) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const auto rest = name.substr(prefix.size());
    if (rest.find_first_not_of("0123456789") != std::string::npos) continue;
    cores[std::stoi(rest)] = s;
  }
  record out;
  if (cores.empty()) return out;
  cell_list mins, maxs, avgs;
  for (const auto& [core, s] : cores) {
    mins.push_back(round2(s->min * scale));
    maxs.push_back(round2(s->max * scale));
    avgs.push_back(round2(s->mean * scale));
  }
  out.set("min", std::move(mins));
  out.set("max", std::move(maxs));
  out.set("avg", std::move(avgs));
  return out;
}

// {"Utilization", "Frequencies"} of one engine, from its utilisation (%) and clock (Hz) channels.
record engine(const stats_by_name& stats, const std::string& util, const std::string& clock) {
  record out;
  if (const auto it = stats.find(util); it != stats.end()) out.set("Utilization", min_max_avg(*it->second, 1.0));
  if (const auto it = stats.find(clock); it != stats.end()) out.set("Frequencies", min_max_avg(*it->second, 1e-6));
  return out;
}

}  // namespace

memory_use memory_use_of(const platform::memory_info& memory) {
  // In kB, as the file counts them: the seed divided its kB by 1024.
  auto in_use_mb = [](const std::optional<std::int64_t>& total, const std::optional<std::int64_t>& left) {
    return total && left ? std::optional<double>(round2(static_cast<double>(*total / 1024 - *left / 1024) / 1024.0))
                         : std::nullopt;
  };
  memory_use m;
  m.ram_mb = in_use_mb(memory.total_bytes, memory.available_bytes);
  m.swap_mb = in_use_mb(memory.swap_total_bytes, memory.swap_free_bytes);
  return m;
}

record tegrastats_aggregates(const measure::power_summary& window, const memory_use& memory) {
  stats_by_name stats;
  for (const auto& entry : window.channels) stats[entry.second.name] = &entry.second;

  record out;
  if (memory.ram_mb) out.set("RAM", *memory.ram_mb);
  if (memory.swap_mb) out.set("SWAP", *memory.swap_mb);
  record cpu;
  if (auto u = per_core(stats, "util.cpu", 1.0); !u.empty()) cpu.set("Utilization", std::move(u));
  if (auto f = per_core(stats, "clock.cpu", 1e-6); !f.empty()) cpu.set("Frequencies", std::move(f));
  if (!cpu.empty()) out.set("CPU", std::move(cpu));
  if (auto e = engine(stats, "util.emc", "clock.emc"); !e.empty()) out.set("EMC_FREQ", std::move(e));
  if (auto g = engine(stats, "util.gpu", "clock.gpu"); !g.empty()) out.set("GR3D_FREQ", std::move(g));
  // The engines under the seed's names (tegrastats' fields: "NVDEC", "VIC", "APE"): "off" when
  // the clock was gated throughout, else its mean in MHz (gated samples as 0).
  for (const auto& clock : platform::engine_clock_names()) {
    const auto it = stats.find("clock." + clock);
    if (it == stats.end()) continue;
    std::string key = clock;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (it->second->max > 0) out.set(key, round2(it->second->mean * 1e-6));
    else out.set(key, "off");
  }
  for (const auto& [name, s] : stats)
    if (name.rfind("temp.", 0) == 0) out.set(name.substr(5) + " Temperature", round2(s->mean));
  for (const auto& [name, s] : stats)
    if (name.rfind("rail.", 0) == 0) out.set(name.substr(5) + " Power", round2(s->mean * 1000.0));
  return out;
}

}  // namespace jetperf::kinds
