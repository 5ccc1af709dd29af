#pragma once
// The simulator's own figures beside the estimators' (sim_power_w, sim_dynamic_w): on a simulated
// board, what its power model drew over the very stretches a figure stands for, so that every
// estimate can be checked against the truth rather than against another estimate. A board
// without a model (a real one: no platform::board_fidelity) has none, and the columns stay null.
#include <cstddef>
#include <optional>
#include <vector>

#include <jetperf/common/row.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/platform/board_fidelity.hpp>

namespace jetperf::measure {

/// The modelled power of several items (a network's layers), added up from stretches given as
/// they run: the simulator keeps the work it modelled for seconds, so each run's stretches are
/// asked for after the next run (its clocks decided by then), the last ones at flush().
class modelled_truth {
 public:
  /// `fidelity` null: nothing is asked, every figure is nullopt.
  modelled_truth(const platform::board_fidelity* fidelity, std::size_t items);
  /// Item `item` ran over `spans` (CLOCK_MONOTONIC).
  void add(std::size_t item, std::vector<platform::time_span> spans);
  /// Asks for every stretch added so far.
  void flush();
  /// Asks for the stretches added before the last `keep` add() calls' (the runs before the last).
  void flush_all_but(std::size_t keep);
  /// One item's figure over all its stretches; several items' together (their time-weighted mean).
  std::optional<platform::modelled_power> of(std::size_t item) const;
  std::optional<platform::modelled_power> of(const std::vector<std::size_t>& items) const;

 private:
  struct tally {
    double energy = 0, dynamic_energy = 0, seconds = 0;
  };
  const platform::board_fidelity* fidelity_;
  std::vector<tally> tallies_;
  std::vector<std::pair<std::size_t, std::vector<platform::time_span>>> pending_;
};

/// sim_power_w and sim_dynamic_w for `m` (null for nullopt).
void put_modelled(row& metrics, const std::optional<platform::modelled_power>& m);
/// The same for the board's work over [from_ns, to_ns] (one window of a point), asked of `ctx`.
void put_modelled(row& metrics, const point_context& ctx, std::int64_t from_ns, std::int64_t to_ns);

}  // namespace jetperf::measure
