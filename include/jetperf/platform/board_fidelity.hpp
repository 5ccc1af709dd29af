#pragma once
// What a board's numbers stand for. On a real board everything measured is real; a simulated
// board (src/sim) models power from the job's own threads and, where the host allows, a CPU
// workload's speed from its simulated CPU clock. Results carry flags for what it did not model,
// so that no simulated number passes for a measured one.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::platform {

class board_fidelity {
 public:
  virtual ~board_fidelity() = default;
  /// Flags for a measurement window that started at `since_ns` (CLOCK_MONOTONIC) on `device`
  /// ("cpu", "cuda") with `threads` CPU threads (0: the library's default, every core):
  /// "speed_not_simulated" when the workload's speed did not follow the board's simulated clocks,
  /// "speed_threads_approx" when it followed them only roughly (several threads under a
  /// simulated clock). Empty on a real board.
  virtual std::vector<std::string> window_flags(std::int64_t since_ns, const std::string& device,
                                                int threads) const = 0;
  /// {"simulated", "speed_simulated", "speed_note", ...} for a job's provenance.
  virtual nlohmann::json describe() const = 0;
};

}  // namespace jetperf::platform
