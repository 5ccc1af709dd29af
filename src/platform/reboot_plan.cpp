#include <jetperf/platform/reboot_plan.hpp>

#include <algorithm>
#include <optional>

namespace jetperf::platform {

namespace {

const power_mode_offer* find_mode(const board_offer& offered, std::int64_t id) {
  for (const auto& m : offered.power_modes)
    if (m.id == id) return &m;
  return nullptr;
}

bool needs_reboot(const board_offer& offered, std::int64_t from, std::int64_t to) {
  if (from == to) return false;
  const auto* target = find_mode(offered, to);
  return target && std::find(target->reboot_from.begin(), target->reboot_from.end(), from) != target->reboot_from.end();
}

std::string name_of(const board_offer& offered, std::int64_t id) {
  const auto* m = find_mode(offered, id);
  return std::to_string(id) + (m ? " (" + m->name + ")" : std::string());
}

}  // namespace

std::vector<reboot_step> reboot_steps(const board_offer& offered, const std::vector<std::int64_t>& modes) {
  std::vector<reboot_step> steps;
  std::optional<std::int64_t> now = offered.power_mode;
  for (auto m : modes) {
    if (now && needs_reboot(offered, *now, m)) steps.push_back({*now, m, false});
    now = m;
  }
  if (offered.power_mode && now && needs_reboot(offered, *now, *offered.power_mode))
    steps.push_back({*now, *offered.power_mode, true});
  return steps;
}

std::string describe(const board_offer& offered, const std::vector<reboot_step>& steps) {
  std::string s;
  for (const auto& step : steps)
    s += (s.empty() ? "" : ", ") + name_of(offered, step.from) + " -> " + name_of(offered, step.to) +
         (step.restore ? " when the job ends" : "");
  return s;
}

}  // namespace jetperf::platform
