#pragma once
// What `nvpmodel -q` reports (README 8.1).
#include <string>
#include <vector>

namespace jetperf::platform {

/// `nvpmodel -q`: "NV Fan Mode:<m>" (Xavier r32, optional), "NV Power Mode: <NAME>", then the id.
struct nvpmodel_query {
  int mode_id = -1;               ///< -1 when the id line is missing
  std::string mode_name;
  std::string fan_mode;           ///< "" when not printed
  std::vector<std::string> warnings;  ///< text after "NVPM WARN:"
};

}  // namespace jetperf::platform
