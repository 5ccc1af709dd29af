#include <jetperf/sim/sim_fidelity.hpp>

namespace jetperf::sim {

std::vector<std::string> sim_fidelity::window_flags(std::int64_t since_ns, const std::string& device, int threads) const {
  const auto s = simulator_.speed();
  // A GPU's speed is the host GPU's whatever the simulated GPU clock; a CPU workload's follows
  // the simulated clock unless a reservation was refused during the window.
  if (device != "cpu" || !s.simulated || s.last_refusal_ns >= since_ns) return {"speed_not_simulated"};
  // Several threads held to time slices (a BLAS pool) wait for each other's slices: their
  // slowdown is larger than the clock's. A one-thread workload waits for nobody (its library's
  // idle pool threads may spin beside it, each in slices of its own).
  if (threads != 1 && s.last_parallel_ns >= since_ns) return {"speed_threads_approx"};
  return {};
}

platform::fidelity_summary sim_fidelity::describe() const {
  const auto s = simulator_.speed();
  platform::fidelity_summary f;
  f.simulated = true;
  f.power = "simulated: a power model over the job's own threads' CPU time and the simulated clocks";
  f.speed_simulated = s.simulated;
  f.speed = s.simulated ? "CPU workloads get a CPU share of f/f_max of the simulated CPU clock (" + s.mechanism +
                              "); mean rates follow the clock, absolute rates are the host's, GPU speed is not "
                              "simulated"
                        : "not simulated (" + s.reason + "): every clock runs at host speed, so comparisons "
                          "across clocks cover power only";
  if (s.simulated) f.speed_mechanism = s.mechanism;
  if (s.simulated && s.last_refusal_ns > 0) f.last_refusal = s.reason;
  return f;
}

std::optional<platform::modelled_power> sim_fidelity::modelled(const std::vector<platform::time_span>& spans) const {
  return simulator_.modelled(spans);
}

}  // namespace jetperf::sim
