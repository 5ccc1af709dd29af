#include <jetperf/kinds/command/command_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& command_columns() {
  static const column_table table{
      measure::join_columns({
          {{"repeat", column_type::integer, param, "", "which measured run under this setting, from 0", true}},
          measure::setting_columns(true),
          measure::setting_detail_columns(),
          {
              {"exit_code", column_type::integer, metric, "", "the program's exit status (null when a signal ended it)", true},
              {"signal", column_type::integer, metric, "", "the signal that ended it (0: none)", false},
              {"timed_out", column_type::boolean, metric, "", "killed (with its process group) after spec.timeout_s", false},
              {"wall_s", column_type::number, metric, "s", "from its start to its exit", true, /*main=*/true},
          },
          measure::power_columns(),
          {
              {"rail_energy_j", column_type::object, metric, "J", "energy per rail over the run {RAIL: J}", false},
              {"phases", column_type::object, metric, "",
               "per marked phase {NAME: {count, time_s, power_w, energy_j, dynamic_energy_j, rail_power_w, "
               "rail_energy_j, samples, unclosed}}",
               false},
              {"marks", column_type::object, metric, "", "`mark` markers counted by name {NAME: count}", false},
              {"markers", column_type::integer, metric, "", "markers received during the run", false},
              {"marker_errors", column_type::list, metric, "",
               "what was wrong with markers: malformed lines, unpaired begin/end, markers dropped past the limit",
               false},
              {"warmup_exit_codes", column_type::list, metric, "", "exit status of each warm-up run before this one", false},
              {"stdout_tail", column_type::text, metric, "", "the last bytes the run wrote to stdout", false},
              {"stderr_tail", column_type::text, metric, "", "the last bytes the run wrote to stderr", false},
              {"stdout_bytes", column_type::integer, metric, "B", "all it wrote to stdout", false},
              {"stderr_bytes", column_type::integer, metric, "B", "all it wrote to stderr", false},
          },
          measure::window_columns(),
      }),
      true,
      {}};
  return table;
}

}  // namespace jetperf::kinds
