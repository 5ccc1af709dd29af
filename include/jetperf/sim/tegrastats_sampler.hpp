#pragma once
// The lines of the simulated board's `tegrastats` (README 7): the family/L4T's exact field layout
// (r32: no timestamp, rails `cur/avg`; r36: timestamp, `curmW/avgmW`, GR3D `@[f0,f1]`), read from
// the board tree at each call. daemon/sim/tegrastats_main.cpp runs the interval loop around it.
#include <jetperf/sim/board_profile.hpp>
#include <jetperf/sim/host_cpu_stat.hpp>

#include <ctime>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace jetperf::sim {

class tegrastats_sampler {
 public:
  /// `root` is the board's host root (<dir>/root); `proc_dir` the host's /proc (memory); the
  /// CPU load is the board's own <root>/proc/stat, which the rail simulator keeps.
  tegrastats_sampler(const board_profile& profile, std::string root, std::string proc_dir = "/proc");

  /// One output line without newline. `root_form`: what tegrastats prints when run as root
  /// (EMC/GR3D @freq, APE, MTS, IRAM, VIC). Rail averages run since the first call.
  std::string line(bool root_form, std::time_t now);

 private:
  /// GR3D_FREQ and, as root, the engines, VIC, APE and MTS fields.
  void gpu_fields(std::ostream& o, bool root_form) const;
  /// The thermal zones, `name@xC` (JetPack 7.2: `name@xC/maxC`, the maximum since the first call).
  void zone_fields(std::ostream& o);
  /// An engine's clock in MHz from the board tree (`field` as tegrastats prints it); nullopt
  /// while its clock is gated or it has no rate.
  std::optional<long long> engine_mhz(const std::string& field) const;

  const board_profile& profile_;
  std::string root_, proc_;
  host_cpu_stat stat_;
  std::vector<double> rail_sum_;
  std::vector<long long> rail_max_;
  std::map<std::string, long long> zone_max_;
  long long samples_ = 0;
};

/// The name tegrastats prints for a thermal zone type: "cpu-thermal" -> "cpu" (JetPack 7 zones).
std::string tegrastats_zone_name(const std::string& zone_type);

/// "44.562" / "32" / "-256": a millidegree value as tegrastats prints it (no trailing zeros).
std::string format_celsius(long long millideg);

}  // namespace jetperf::sim
