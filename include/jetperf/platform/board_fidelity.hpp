#pragma once
// What a board's numbers stand for. On a real board everything measured is real; a simulated
// board (src/sim) models power from the job's own threads and, where the host allows, a CPU
// workload's speed from its simulated CPU clock. Results carry flags for what it did not model,
// so that no simulated number passes for a measured one.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jetperf::platform {

/// A job provenance's "simulation" part (api/board_views.hpp makes its JSON).
struct fidelity_summary {
  bool simulated = false;
  std::string power;  ///< how power is modelled
  bool speed_simulated = false;
  std::string speed;  ///< how (or why not) workload speed follows the simulated clocks
  std::optional<std::string> speed_mechanism;  ///< while speed is simulated
  std::optional<std::string> last_refusal;     ///< the reason of the last refused reservation, if any
};

/// A simulated board's own figure for some stretches of time: the board power its model drew
/// (what the total power channel reads, without the sensor's noise, averaging or lag),
/// time-weighted over them, and the same less what the board draws idle under the same clocks.
struct modelled_power {
  double power_w = 0;
  double dynamic_w = 0;
  double seconds = 0;  ///< the time it is over
};

/// [start, end) on CLOCK_MONOTONIC, ns.
using time_span = std::pair<std::int64_t, std::int64_t>;

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
  /// What is simulated, for a job's provenance.
  virtual fidelity_summary describe() const = 0;
  /// The simulator's own figure over `spans` (the estimators' truth), asked soon after they
  /// ended (a simulator keeps the work it modelled for seconds); nullopt where it has none.
  virtual std::optional<modelled_power> modelled(const std::vector<time_span>& spans) const = 0;
};

}  // namespace jetperf::platform
