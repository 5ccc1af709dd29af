#pragma once
// EMC settings as read from the board.

namespace jetperf::platform {

/// Current EMC settings: `locked` is the override/lock flag, `rate` the current rate (Hz).
struct emc_setting {
  long long rate = 0;
  long long min = 0;
  long long max = 0;
  bool locked = false;
  long long request = 0;  ///< the rate last asked for (t210 clk_update_rate; bpmp: the rate)
};

}  // namespace jetperf::platform
