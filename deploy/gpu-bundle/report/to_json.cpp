#include "bundle_report.hpp"

namespace jetperf::bundle {

nlohmann::ordered_json to_json(const run_report& r) {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.environment) env[k] = v;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& s : r.steps) {
    nlohmann::ordered_json figures = nlohmann::ordered_json::object();
    for (const auto& f : s.figures) figures[f.name] = f.value;
    steps.push_back({{"name", s.name},
                     {"status", s.status},
                     {"seconds", s.seconds},
                     {"commands", s.commands},
                     {"figures", std::move(figures)}});
  }
  return {{"environment", std::move(env)}, {"every_step_ran", every_step_ran(r)}, {"steps", std::move(steps)}};
}

}  // namespace jetperf::bundle
