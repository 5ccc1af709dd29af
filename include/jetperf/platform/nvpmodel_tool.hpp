#pragma once
// The real `nvpmodel` program, run with an argument vector (README section 8.1): query the mode,
// set a mode, dump the parsed configuration. Mode changes that flip TPC/FBP power gating need a
// reboot; they are refused unless forced, and forcing answers nvpmodel's prompt with "YES" as jtop does.
#include <chrono>
#include <string>
#include <vector>

#include <jetperf/platform/nvpmodel_conf.hpp>
#include <jetperf/platform/nvpmodel_output.hpp>

namespace jetperf::platform {

/// Why switching from mode `from_id` to `to_id` needs a reboot, e.g. "TPC_PG_MASK 0 -> 5";
/// empty when it does not. Compares the power-gating masks (*_PG_MASK args, *_POWER_GATING params).
std::vector<std::string> reboot_reasons(const nvpmodel_conf& conf, int from_id, int to_id);

class nvpmodel_tool {
 public:
  /// `program`: absolute path or a name looked up in PATH (configurable; the simulator installs its own).
  explicit nvpmodel_tool(std::string program = "nvpmodel",
                         std::chrono::milliseconds timeout = std::chrono::seconds(30));

  const std::string& program() const { return program_; }
  /// `nvpmodel -q`. Throws platform_error when it fails or prints no mode.
  nvpmodel_query query() const;
  /// `nvpmodel -p --verbose`: the configuration as nvpmodel itself parsed it.
  nvpmodel_conf dump_config() const;
  /// `nvpmodel -m <id>`. With `conf`, refuses (conflict) a change that needs a reboot unless `force`;
  /// forcing feeds "YES\n" on stdin. Throws platform_error with nvpmodel's message on
  /// "NVPM ERROR", a non-zero exit or a timeout, and when the mode does not read back.
  /// Returns true when the forced change waits for a reboot (a real board goes down now; a
  /// simulated one applies it when it boots next), false when it is in effect.
  bool set_mode(int id, const nvpmodel_conf* conf, bool force) const;

 private:
  std::string program_;
  std::chrono::milliseconds timeout_;
};

}  // namespace jetperf::platform
