#pragma once
// What a kind tells the cost model (jobs/cost_model.hpp) about one run of a point, and what the
// kind's estimate reads back: the seconds one run of any point takes, from the runs this board
// measured before (else the kind's own guess), the board's sensor update period, and how many
// times each measurement window is measured.
#include <functional>
#include <optional>
#include <string>

namespace jetperf::measure {

struct run_cost {
  /// Points whose runs take the same time per unit of work: "cpu/float/tensor=off" for gemm,
  /// "cpu/float/Bottleneck" for layers.
  std::string cls;
  double work = 0;                  ///< FLOPs of one run (batch included)
  std::optional<double> clock_hz;   ///< the clock the run is bound by, when the point sets it
  double prior_s = 0;               ///< the kind's own guess at one run's seconds, for a class with no history
};

/// How long one run of a point takes, and how much its runs vary.
struct run_time {
  double mean_s = 0;
  /// Standard deviation over mean of single runs: an adaptive window with a time RSE target
  /// needs about (cv / target)^2 runs.
  double cv = 0;
};

struct estimate_context {
  /// One run of a point.
  std::function<run_time(const run_cost&)> run;
  /// How often the board's power sensor updates (0: unknown): adaptive windows span several.
  double sensor_update_s = 0;
  /// How many times each point's window is measured: 1, or more where others take the CPU and
  /// contended windows are measured again (max_retries). What the job's own points measured, else
  /// what the board's recent jobs of the kind did. A kind multiplies the part of a point that a
  /// contended window repeats (the window, a command's run and its cool-down) by it.
  double window_repeats = 1;
};

}  // namespace jetperf::measure
