#pragma once
// The EMC control files of a SoC family (README 2).
#include <string>

namespace jetperf::platform {

/// EMC control files for the family ("bpmp": t186/t194/t234, "t210"); `kind` "" when absent.
struct emc_files {
  std::string kind;
  std::string rate;      ///< current rate
  std::string min_rate;
  std::string max_rate;
  std::string lock;      ///< bpmp mrq_rate_locked / t210 override clk_state
  std::string update;    ///< t210 clk_update_rate ("" on bpmp, where `rate` is written)
  std::string possible;  ///< optional list of rates, "" when absent
  std::string cap;       ///< nvpmodel EMC cap file, "" when absent
};

}  // namespace jetperf::platform
