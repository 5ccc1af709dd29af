#include <jetperf/kinds/multi_dnn/tegrastats_aggregates.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace jetperf::kinds {

namespace {

using nlohmann::ordered_json;

struct channel_stats {
  double min = 0, max = 0, sum = 0;
  std::size_t n = 0;
  void add(double v) {
    min = n ? std::min(min, v) : v;
    max = n ? std::max(max, v) : v;
    sum += v;
    ++n;
  }
  double avg() const { return n ? sum / static_cast<double>(n) : 0.0; }
};

// Two decimals, as the seed's processed files round.
double round2(double v) { return std::round(v * 100.0) / 100.0; }

ordered_json min_max_avg(const channel_stats& s, double scale) {
  return {{"min", round2(s.min * scale)}, {"max", round2(s.max * scale)}, {"avg", round2(s.avg() * scale)}};
}

// Per-core lists ordered by core number from channels "<prefix><n>".
ordered_json per_core(const std::map<std::string, channel_stats>& stats, const std::string& prefix, double scale) {
  std::map<int, const channel_stats*> cores;
  for (const auto& [name, s] : stats) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const auto rest = name.substr(prefix.size());
    if (rest.find_first_not_of("0123456789") != std::string::npos) continue;
    cores[std::stoi(rest)] = &s;
  }
  ordered_json out = ordered_json::object();
  if (cores.empty()) return out;
  ordered_json mins = ordered_json::array(), maxs = ordered_json::array(), avgs = ordered_json::array();
  for (const auto& [core, s] : cores) {
    mins.push_back(round2(s->min * scale));
    maxs.push_back(round2(s->max * scale));
    avgs.push_back(round2(s->avg() * scale));
  }
  out["min"] = mins;
  out["max"] = maxs;
  out["avg"] = avgs;
  return out;
}

// {"Utilization", "Frequencies"} of one engine, from its utilisation (%) and clock (Hz) channels.
ordered_json engine(const std::map<std::string, channel_stats>& stats, const std::string& util, const std::string& clock) {
  ordered_json out = ordered_json::object();
  if (const auto it = stats.find(util); it != stats.end()) out["Utilization"] = min_max_avg(it->second, 1.0);
  if (const auto it = stats.find(clock); it != stats.end()) out["Frequencies"] = min_max_avg(it->second, 1e-6);
  return out;
}

}  // namespace

memory_use read_memory_use(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, double> kb;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string key;
    double value = 0;
    if (ss >> key >> value && !key.empty() && key.back() == ':') kb[key.substr(0, key.size() - 1)] = value;
  }
  memory_use m;
  if (kb.count("MemTotal") && kb.count("MemAvailable")) m.ram_mb = round2((kb["MemTotal"] - kb["MemAvailable"]) / 1024.0);
  if (kb.count("SwapTotal") && kb.count("SwapFree")) m.swap_mb = round2((kb["SwapTotal"] - kb["SwapFree"]) / 1024.0);
  return m;
}

ordered_json tegrastats_aggregates(const std::vector<telemetry::channel_info>& channels,
                                   const std::vector<telemetry::sample>& samples, const memory_use& memory) {
  std::map<std::string, channel_stats> stats;
  for (const auto& s : samples)
    if (s.channel >= 0 && static_cast<std::size_t>(s.channel) < channels.size()) stats[channels[s.channel].name].add(s.value);

  ordered_json out = ordered_json::object();
  if (memory.ram_mb) out["RAM"] = *memory.ram_mb;
  if (memory.swap_mb) out["SWAP"] = *memory.swap_mb;
  ordered_json cpu = ordered_json::object();
  if (auto u = per_core(stats, "util.cpu", 1.0); !u.empty()) cpu["Utilization"] = u;
  if (auto f = per_core(stats, "clock.cpu", 1e-6); !f.empty()) cpu["Frequencies"] = f;
  if (!cpu.empty()) out["CPU"] = cpu;
  if (auto e = engine(stats, "util.emc", "clock.emc"); !e.empty()) out["EMC_FREQ"] = e;
  if (auto g = engine(stats, "util.gpu", "clock.gpu"); !g.empty()) out["GR3D_FREQ"] = g;
  for (const auto& [name, s] : stats)
    if (name.rfind("temp.", 0) == 0) out[name.substr(5) + " Temperature"] = round2(s.avg());
  for (const auto& [name, s] : stats)
    if (name.rfind("rail.", 0) == 0) out[name.substr(5) + " Power"] = round2(s.avg() * 1000.0);
  return out;
}

}  // namespace jetperf::kinds
