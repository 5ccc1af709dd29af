#pragma once
// Estimates that learn from the board: how long one run of a point takes is fitted per kind and
// class of point as t = a + b * work (work = FLOPs, per Hz of the clock the point sets, so that
// runs at one clock predict another), by least squares on relative error over the newest runs of
// the class measured on this board, kept in the store; how much single runs vary (their
// coefficient of variation, which sets how long an adaptive window runs) is that of the recorded
// points nearest in work. A class with no history takes the kind's own guess. What a kind adds
// around its runs (windows, warm-up, idle baselines) is the kind's estimate; how far whole points
// of past jobs were from it is a calibration factor per kind, and how many windows their points
// measured (a loaded host's contended windows are measured again) the kind's window repeats.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/measure/run_cost.hpp>
#include <jetperf/store/cost_store.hpp>

namespace jetperf::jobs {

class cost_model {
 public:
  /// `store` may be null: then the model learns in memory only. `scope` names the board.
  cost_model(store::cost_store* store, std::string scope);

  /// One run of `c`: the class's fit, else c.prior_s with a small variation.
  measure::run_time run(const std::string& kind, const measure::run_cost& c);
  /// Runs of `c` took `run_s` seconds on average, varying by `cv` (kept in the store).
  void record_run(const std::string& kind, const measure::run_cost& c, double run_s, double cv);
  /// What past jobs of a kind taught the model (its defaults: nothing learned).
  struct kind_history {
    /// How long their points took over what was estimated for them, within [0.25, 4].
    double calibration = 1;
    /// Windows their points measured per point that measures one (1: none measured again), at
    /// most k_max_window_repeats.
    double window_repeats = 1;
    std::int64_t jobs = 0;  ///< how many jobs it learned from
  };
  static constexpr double k_max_window_repeats = 11;  // max_retries is at most 10

  kind_history history(const std::string& kind) const;
  /// history(kind).calibration.
  double calibration(const std::string& kind) const;
  /// A job's points were estimated at `predicted_s` and took `actual_s`; `window_points` of them
  /// measured `windows` windows between them.
  void record_job(const std::string& kind, double predicted_s, double actual_s, double windows = 0,
                  double window_points = 0);
  /// An estimate_context whose run_s asks this model (valid while the model lives).
  measure::estimate_context context(const std::string& kind, double sensor_update_s);

 private:
  struct fit {
    bool loaded = false;
    std::vector<store::run_cost_sample> samples;
    double a = 0, b = 0;  ///< t = a + b * work
  };
  static std::string key_of(const measure::run_cost& c);
  static double work_of(const measure::run_cost& c);
  fit& fit_of(const std::string& kind, const std::string& key);
  static void refit(fit& f);

  store::cost_store* store_;
  std::string scope_;
  mutable std::mutex mutex_;  // submissions estimate on HTTP threads while the runner records
  std::map<std::pair<std::string, std::string>, fit> fits_;
};

}  // namespace jetperf::jobs
