#pragma once
// What the cost model (jobs/cost_model.hpp) keeps between jobs: the run times measured per kind
// and class of point against their work, and per kind how long points took against their
// estimates, how many windows they measured (contended ones measured again) and from how many jobs.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct run_cost_sample {
  double work = 0;   ///< FLOPs per run, per Hz of the clock the point set (or FLOPs without one)
  double run_s = 0;  ///< seconds one run took (the mean of the point's runs)
  double cv = 0;     ///< the point's runs' standard deviation over their mean
};

struct cost_calibration {
  double predicted_s = 0;    ///< decaying sum of the estimates of finished points
  double actual_s = 0;       ///< decaying sum of how long they took
  double windows = 0;        ///< decaying sum of the windows those points measured
  double window_points = 0;  ///< decaying sum of the points that measured windows
  std::int64_t jobs = 0;     ///< jobs learned from
};

class cost_store {
 public:
  /// How many samples are kept per kind and class (the oldest go).
  static constexpr int k_kept_per_class = 256;

  explicit cost_store(database& db) : db_(db) {}

  void add_run(const std::string& scope, const std::string& kind, const std::string& cls, run_cost_sample s);
  /// The kept samples of a class, oldest first.
  std::vector<run_cost_sample> runs(const std::string& scope, const std::string& kind, const std::string& cls) const;

  /// Adds a job's predicted and actual seconds, and the windows its points measured, to the kind's
  /// sums, halving what was there before so that the board's recent behaviour counts most; counts
  /// the job.
  void add_calibration(const std::string& scope, const std::string& kind, const cost_calibration& job);
  cost_calibration calibration(const std::string& scope, const std::string& kind) const;

 private:
  database& db_;
};

}  // namespace jetperf::store
