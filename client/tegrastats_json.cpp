#include "tegrastats_json.hpp"

#include <string>
#include <unordered_map>

namespace jetperf::client {

namespace {

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

nlohmann::json tegrastats_record_json(const telemetry::tegrastats_record& r) {
  nlohmann::json j = nlohmann::json::object();
  if (r.timestamp) j["timestamp"] = *r.timestamp;
  j["ram"] = {{"used_mb", opt(r.ram_used_mb)}, {"total_mb", opt(r.ram_total_mb)}};
  // Every field the parser read is written: SWAP, lfb, IRAM and the engines (APE, VIC, NVENC, ...)
  // were parsed and then left out, with "0 fields unparsed" said.
  if (r.lfb_blocks) j["ram"]["lfb_blocks"] = *r.lfb_blocks;
  if (r.lfb_block_mb) j["ram"]["lfb_block_mb"] = *r.lfb_block_mb;
  if (r.swap_used_mb || r.swap_total_mb)
    j["swap"] = {{"used_mb", opt(r.swap_used_mb)}, {"total_mb", opt(r.swap_total_mb)}, {"cached_mb", opt(r.swap_cached_mb)}};
  if (r.iram_used_kb || r.iram_total_kb)
    j["iram"] = {{"used_kb", opt(r.iram_used_kb)}, {"total_kb", opt(r.iram_total_kb)}, {"lfb_kb", opt(r.iram_lfb_kb)}};
  if (!r.engines.empty()) {
    nlohmann::json engines = nlohmann::json::object();
    for (const auto& e : r.engines) {
      nlohmann::json v = {{"freq_mhz", opt(e.freq_mhz)}};
      if (e.util_pct) v["util_pct"] = *e.util_pct;
      if (e.fg_pct) v["fg_pct"] = *e.fg_pct;
      if (e.bg_pct) v["bg_pct"] = *e.bg_pct;
      if (!e.freqs_mhz.empty()) v["freqs_mhz"] = e.freqs_mhz;
      engines[e.name] = std::move(v);
    }
    j["engines"] = std::move(engines);
  }
  nlohmann::json cpus = nlohmann::json::array();
  for (const auto& c : r.cpus) cpus.push_back({{"util_pct", opt(c.util_pct)}, {"freq_mhz", opt(c.freq_mhz)}});
  j["cpus"] = std::move(cpus);
  j["emc"] = {{"util_pct", opt(r.emc_util_pct)}, {"freq_mhz", opt(r.emc_freq_mhz)}};
  nlohmann::json gpu_freq;
  if (r.gpu_per_gpc) {
    gpu_freq = r.gpu_freq_mhz;
  } else if (!r.gpu_freq_mhz.empty()) {
    gpu_freq = r.gpu_freq_mhz.front();
  }
  j["gpu"] = {{"util_pct", opt(r.gpu_util_pct)}, {"freq_mhz", gpu_freq}};
  nlohmann::json temps = nlohmann::json::object();
  nlohmann::json temps_max = nlohmann::json::object();
  for (const auto& t : r.temps) {
    temps[t.name] = opt(t.celsius);
    // JetPack 7's `name@cur/maxC`: the maximum tegrastats has seen, beside the current value.
    if (t.max_celsius) temps_max[t.name] = *t.max_celsius;
  }
  j["temps"] = std::move(temps);
  if (!temps_max.empty()) j["temps_max"] = std::move(temps_max);
  nlohmann::json rails = nlohmann::json::object();
  std::unordered_map<std::string, int> seen;
  for (const auto& rail : r.rails) {
    int n = ++seen[rail.name];
    std::string key = n == 1 ? rail.name : rail.name + "_" + std::to_string(n);
    nlohmann::json v = {{"cur_mw", rail.cur_mw}, {"avg_mw", rail.avg_mw}};
    if (rail.max_mw) v["max_mw"] = *rail.max_mw;
    rails[key] = std::move(v);
  }
  j["rails"] = std::move(rails);
  if (!r.unparsed.empty()) j["unparsed"] = r.unparsed;
  return j;
}

void write_tegrastats_jsonl(const std::vector<telemetry::tegrastats_record>& records, std::ostream& out) {
  for (const auto& r : records) out << tegrastats_record_json(r).dump() << '\n';
}

}  // namespace jetperf::client
