#include <jetperf/measure/point_columns.hpp>

#include <jetperf/platform/board_setting.hpp>

namespace jetperf::measure {

std::vector<column> setting_columns(bool shown) {
  std::vector<column> out;
  for (const auto& f : platform::setting_fields())
    out.push_back({f.key, column_type::integer, column_role::parameter, f.unit, std::string(f.description) + " (read back)",
                   shown && f.headline});
  return out;
}

std::vector<column> setting_detail_columns() {
  return {
      declare(cols::requested, column_role::parameter, "", "the board settings the point asked for", false),
      declare(cols::read_back, column_role::metric, "", "the settings the board reported after applying", false),
  };
}

std::vector<column> power_columns() {
  return {
      declare(cols::power_w, column_role::metric, "W", "mean total board power over the window", true, /*main=*/true),
      declare(cols::power_rse, column_role::metric, "", "relative standard error of power_w", false),
      declare(cols::power_samples, column_role::metric, "", "total-power samples in the window", false),
      declare(cols::window_energy_j, column_role::metric, "J", "energy over the whole window", false),
      declare(cols::temp_max_c, column_role::metric, "C", "hottest temperature in the window", false),
      declare(cols::idle_power_w, column_role::metric, "W", "board at rest under the same settings", false),
      declare(cols::energy_j, column_role::metric, "J", "power_w x one run's mean time", true),
      declare(cols::dynamic_power_w, column_role::metric, "W", "power_w - idle_power_w", false),
      declare(cols::dynamic_energy_j, column_role::metric, "J", "dynamic_power_w x one run's mean time", false),
      declare(cols::sim_power_w, column_role::metric, "W",
              "simulated boards only: the simulator's own board power over the same work (its model, without the "
              "sensor's noise, averaging or lag): the truth power_w estimates", false),
      declare(cols::sim_dynamic_w, column_role::metric, "W",
              "simulated boards only: sim_power_w less what the model draws idle under the same clocks", false),
  };
}

std::vector<column> window_columns() {
  return {
      declare(cols::throttle, column_role::metric, "",
       "clocks that read below their request in the window or when read back, per clock", false),
      declare(cols::flags, column_role::metric, "",
       "caveats: throttled, max_time_reached, rse_unmet, contended, no_power, settings_not_applied (no board, or a clock read "
       "back above its request), power_window_truncated, speed_not_simulated and speed_threads_approx (simulated "
       "boards), ...", false),
      declare(cols::power_window_covered_s, column_role::metric, "s",
       "with power_window_truncated: the seconds at the window's end that its power figures cover", false),
      declare(cols::stop_reason, column_role::metric, "", "why the window ended", false),
      declare(cols::projected_rse, column_role::metric, "",
       "with stop_reason projected_max_time: the latency's RSE projected at max_time_s from its trend (over "
       "target_rse: the window stopped early)", false),
      declare(cols::others_cpu_share, column_role::metric, "",
       "share of the workload's cores' time other processes took in the window kept (over contention_threshold: "
       "flag contended)", false),
      declare(cols::retries, column_role::metric, "",
       "windows measured again because other processes took more than contention_threshold", false),
      declare(cols::unmet, column_role::metric, "", "stop criteria not met when the window ended", false),
  };
}

std::vector<column> join_columns(std::initializer_list<std::vector<column>> groups) {
  std::vector<column> out;
  for (const auto& g : groups) out.insert(out.end(), g.begin(), g.end());
  return out;
}

}  // namespace jetperf::measure
