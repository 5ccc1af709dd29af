#include <jetperf/platform/engine_clocks.hpp>

#include <algorithm>
#include <cctype>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

std::string clk_file(const char* dir, const std::string& clock, const char* file) {
  return std::string(dir) + "/" + clock + "/" + file;
}

}  // namespace

const std::vector<std::string>& engine_clock_names() {
  // In the order tegrastats prints them (r35: "NVDEC off NVJPG off NVJPG1 off VIC off OFA off APE 200").
  static const std::vector<std::string> names{"nvenc",  "nvenc0", "nvenc1", "nvdec", "nvdec0", "nvdec1", "nvjpg",
                                              "nvjpg0", "nvjpg1", "vic",    "ofa",   "pva0",   "ape"};
  return names;
}

std::string engine_clock_name(const std::string& tegrastats_field) {
  std::string name = tegrastats_field;
  const std::string suffix = "_FREQ";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

engine_clock_files find_engine_clock(const sysfs_root& root, const std::string& clock) {
  engine_clock_files out;
  if (const auto enable = clk_file(paths::debug_clk_dir, clock, "clk_enable_count"); root.exists(enable))
    out.enable = enable;
  for (const auto& rate : {clk_file(paths::bpmp_clk_dir, clock, "rate"), clk_file(paths::debug_clk_dir, clock, "clk_rate")})
    if (root.exists(rate)) {
      out.rate = rate;
      break;
    }
  return out;
}

engine_clock_files engine_clock_paths(const std::string& soc, const std::string& clock) {
  engine_clock_files out;
  // APE's clock has no gate tegrastats reads (it prints APE's rate always).
  if (clock != "ape") out.enable = clk_file(paths::debug_clk_dir, clock, "clk_enable_count");
  out.rate = soc == "tegra210" ? clk_file(paths::debug_clk_dir, clock, "clk_rate") : clk_file(paths::bpmp_clk_dir, clock, "rate");
  return out;
}

}  // namespace jetperf::platform
