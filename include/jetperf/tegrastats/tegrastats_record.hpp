#pragma once
// One tegrastats line as typed values. Optional fields come and go between boards, L4T releases
// and root/non-root runs (README 7.1, 10.6), so absence is explicit rather than a zero.
#include <optional>
#include <string>
#include <vector>

namespace jetperf::telemetry {

/// One CPU core; both values empty when tegrastats prints `off`.
struct tegrastats_cpu {
  std::optional<double> util_pct;
  std::optional<double> freq_mhz;
};

/// A rail in mW: `cur/avg` (r32), `curmW/avgmW` (r35/r36), `cur/avg/max` (JetPack 7).
struct tegrastats_rail {
  std::string name;
  double cur_mw = 0;
  double avg_mw = 0;
  std::optional<double> max_mw;
};

/// `NAME@xC` or JetPack 7 `name@cur/maxC`; celsius empty for -256 (sensor offline).
struct tegrastats_temp {
  std::string name;
  std::optional<double> celsius;
  std::optional<double> max_celsius;
};

/// APE, NVENC, NVDEC, NVJPG, VIC_FREQ, ... (MHz; empty when `off`); MTS carries fg/bg percent.
/// `NAME l%@[f0,f1]`, `NAME @[f0,f1]` and `name@[f0,f1]` print one frequency per cluster: the list
/// is in freqs_mhz and freq_mhz holds the highest (the clusters of one engine share a clock).
struct tegrastats_engine {
  std::string name;
  std::optional<double> freq_mhz;
  std::optional<double> util_pct;
  std::optional<double> fg_pct;
  std::optional<double> bg_pct;
  std::vector<double> freqs_mhz;
};

struct tegrastats_record {
  std::optional<std::string> timestamp;  ///< "MM-DD-YYYY HH:MM:SS" as printed
  std::optional<double> ram_used_mb;
  std::optional<double> ram_total_mb;
  std::optional<double> lfb_blocks;      ///< N of (lfb NxSIZE)
  std::optional<double> lfb_block_mb;    ///< SIZE in MB (kB converted)
  std::optional<double> swap_used_mb;
  std::optional<double> swap_total_mb;
  std::optional<double> swap_cached_mb;
  std::optional<double> iram_used_kb;
  std::optional<double> iram_total_kb;
  std::optional<double> iram_lfb_kb;
  std::vector<tegrastats_cpu> cpus;
  std::optional<double> emc_util_pct;
  std::optional<double> emc_freq_mhz;
  std::optional<double> gpu_util_pct;    ///< mean over GPCs when GR3D2_FREQ is printed
  std::vector<double> gpu_freq_mhz;      ///< one per GPC when per_gpc
  bool gpu_per_gpc = false;              ///< `@[f0,f1]` or GR3D_FREQ+GR3D2_FREQ
  std::vector<tegrastats_engine> engines;
  std::vector<tegrastats_temp> temps;
  std::vector<tegrastats_rail> rails;
  /// Fields the parser did not understand, one entry each in line order ("FOO 12%" keeps its value,
  /// "(lfb 3x4GB)" its group): a new tegrastats field never costs the rest of the line. Tokens are
  /// joined by one space; bytes outside printable ASCII are written \xNN and an entry is cut at 200
  /// characters, so the text is always valid JSON.
  std::vector<std::string> unparsed;
};

}  // namespace jetperf::telemetry
