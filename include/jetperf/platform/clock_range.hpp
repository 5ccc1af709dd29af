#pragma once
// A min/max frequency pair with its governor.
#include <string>

namespace jetperf::platform {

/// A min/max frequency pair with its governor (Hz for GPU, kHz for CPU).
struct clock_range {
  long long min = 0;
  long long max = 0;
  std::string governor;
};

}  // namespace jetperf::platform
