// The in_context protocol's time to converge on a synthetic board whose power does not follow
// the host's load (support/synthetic_layers_board.hpp): resnet50's 22 blocks with the durations
// they have on sim:orin-agx's CPU (0.02 to 8 ms), distinct powers above idle, an INA3221 that
// updates every 19.584 ms (its driver says 20) with 0.015 W of noise, polled every 10 ms as the
// sampler does. Runs the protocol `repeats` times with updates aimed at the unresolved layers and
// as many times without, alternating, and prints one JSON object with each run and the medians.
// Usage: bench_in_context_synthetic [repeats=6] [target_half_width=0.05] [max_time_s=60]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/synthetic_layers_board.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

json run_once(bool aim, unsigned seed, double target, double max_time_s, double* wall_s) {
  const auto layers = models::layers_of(models::build_model("resnet50"), models::granularity::block);
  std::vector<double> seconds, watts;
  for (const auto& l : layers) {
    // Durations as measured on sim:orin-agx (oneDNN, 1 thread): the stem's small ops, 4-8 ms
    // bottlenecks (the first of each stage longest), avgpool and fc at the end.
    double s = 4.5e-3, w = 1.1 + 0.06 * static_cast<double>(l.index % 6);
    if (l.name == "conv1") s = 2.2e-3, w = 1.4;
    if (l.name == "bn1" || l.name == "relu" || l.name == "maxpool") s = 0.25e-3, w = 0.6;
    if (l.name.size() > 2 && l.name.compare(l.name.size() - 2, 2, ".0") == 0) s = 7.5e-3;
    if (l.name == "avgpool") s = 0.02e-3, w = 0.5;
    if (l.name == "fc") s = 0.6e-3, w = 0.9;
    seconds.push_back(s);
    watts.push_back(w);
  }
  test::sensor_clock clock{20'000'000, 19'584'000, 4'100'000};
  test::synthetic_layers_board board("resnet50", seconds, watts, clock, 10'000'000, 6.5, 0.015, seed);
  // On CLOCK_MONOTONIC: the board sleeps through its ops, and wall_s is what a board would take.
  board.time = &measure::monotonic_clock();
  measure::in_context_plan plan;
  plan.min_time_s = 0.1;
  plan.max_time_s = max_time_s;
  plan.target_rel = target;
  plan.aim_updates = aim;
  const auto t0 = std::chrono::steady_clock::now();
  const auto out = board.run(false, 6.5, plan);
  *wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int resolved = 0, merged = 0, outside = 0;
  for (std::size_t i = 0; i < out.layers.size(); ++i) {
    const auto& r = out.layers[i];
    resolved += r.resolution == measure::layer_resolution::resolved;
    merged += r.resolution == measure::layer_resolution::merged;
    if (r.resolution == measure::layer_resolution::resolved || r.resolution == measure::layer_resolution::not_converged)
      outside += std::abs(r.power_w - board.true_power(i)) > r.power_ci95_w;
  }
  return {{"aimed", aim},
          {"seed", seed},
          {"wall_s", *wall_s},
          {"stop", to_string(out.window.decision.reason)},
          {"runs", out.estimator.runs},
          {"targeted_runs", out.estimator.targeted_runs},
          {"resolved", resolved},
          {"merged", merged},
          {"own_outside_ci95", outside}};
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 6;
  const double target = argc > 2 ? std::atof(argv[2]) : 0.05;
  const double max_time_s = argc > 3 ? std::atof(argv[3]) : 60.0;
  json runs = json::array();
  std::vector<double> aimed, plain;
  for (int i = 0; i < repeats; ++i)
    for (bool aim : {true, false}) {
      double wall = 0;
      runs.push_back(run_once(aim, static_cast<unsigned>(i + 1), target, max_time_s, &wall));
      (aim ? aimed : plain).push_back(wall);
    }
  std::cout << json{{"benchmark", "in_context_synthetic"},
                    {"board", "synthetic: resnet50 blocks, INA3221-like 19.584 ms sensor polled every 10 ms, 0.015 W noise"},
                    {"target_half_width", target},
                    {"max_time_s", max_time_s},
                    {"aimed_median_wall_s", median(aimed)},
                    {"aimed_min_wall_s", *std::min_element(aimed.begin(), aimed.end())},
                    {"aimed_max_wall_s", *std::max_element(aimed.begin(), aimed.end())},
                    {"plain_median_wall_s", median(plain)},
                    {"plain_min_wall_s", *std::min_element(plain.begin(), plain.end())},
                    {"plain_max_wall_s", *std::max_element(plain.begin(), plain.end())},
                    {"runs", runs}}
                   .dump(2)
            << "\n";
  return 0;
}
