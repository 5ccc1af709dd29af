#pragma once
// A simulated board's fidelity (platform/board_fidelity.hpp), read from its rail simulator.
#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/sim/rail_simulator.hpp>

namespace jetperf::sim {

class sim_fidelity final : public platform::board_fidelity {
 public:
  /// `simulator` must outlive this object.
  explicit sim_fidelity(const rail_simulator& simulator) : simulator_(simulator) {}
  std::vector<std::string> window_flags(std::int64_t since_ns, const std::string& device, int threads) const override;
  platform::fidelity_summary describe() const override;
  std::optional<platform::modelled_power> modelled(const std::vector<platform::time_span>& spans) const override;

 private:
  const rail_simulator& simulator_;
};

}  // namespace jetperf::sim
