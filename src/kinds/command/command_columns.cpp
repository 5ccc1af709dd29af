#include <jetperf/kinds/command/command_columns.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

using namespace command;

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& command_columns() {
  static const column_table table{
      measure::join_columns({
          {declare(cols::repeat, param, "", "which measured run under this setting, from 0", true)},
          measure::setting_columns(true),
          measure::setting_detail_columns(),
          {
              declare(cols::exit_code, metric, "", "the program's exit status (null when a signal ended it)", true),
              declare(cols::signal, metric, "", "the signal that ended it (0: none)", false),
              declare(cols::timed_out, metric, "", "killed (with its process group) after spec.timeout_s", false),
              declare(cols::wall_s, metric, "s", "from its start to its exit", true, /*main=*/true),
          },
          measure::power_columns(),
          {
              declare(cols::rail_energy_j, metric, "J", "energy per rail over the run {RAIL: J}", false),
              declare(cols::phases, metric, "",
               "per marked phase {NAME: {count, time_s, power_w, energy_j, dynamic_energy_j, rail_power_w, "
               "rail_energy_j, samples, unclosed}}",
               false),
              declare(cols::marks, metric, "", "`mark` markers counted by name {NAME: count}", false),
              declare(cols::markers, metric, "", "markers received during the run", false),
              declare(cols::marker_errors, metric, "",
               "what was wrong with markers: malformed lines, unpaired begin/end, markers dropped past the limit",
               false),
              declare(cols::warmup_exit_codes, metric, "", "exit status of each warm-up run before this one", false),
              declare(cols::stdout_tail, metric, "", "the last bytes the run wrote to stdout", false),
              declare(cols::stderr_tail, metric, "", "the last bytes the run wrote to stderr", false),
              declare(cols::stdout_bytes, metric, "B", "all it wrote to stdout", false),
              declare(cols::stderr_bytes, metric, "B", "all it wrote to stderr", false),
          },
          measure::window_columns(),
      }),
      true,
      {}};
  return table;
}


const std::vector<summary_table>& command_summary_tables() {
  using f = summary_format;
  using from = summary_source;
  // Per board setting its runs' median wall time and energy, then each marked phase's mean time
  // and energy per run (the phases are named members of each setting's "phases").
  static const std::vector<summary_table> tables{
      {"runs",
       "",
       "settings",
       "",
       {{"setting", "setting", "", f::setting},
        {"runs", "runs", "", f::value},
        {"wall_median_s", "wall_median_s", "s", f::value},
        {"energy_median_j", "energy_median_j", "J", f::value}},
       "runs: -"},
      {"phases",
       "phases (mean per run)",
       "settings",
       "phases",
       {{"setting", "setting", "", f::setting, from::parent},
        {"phase", "", "", f::value, from::key},
        {"runs", "runs", "", f::value},
        {"time_mean_s", "time_mean_s", "s", f::value},
        {"energy_mean_j", "energy_mean_j", "J", f::value}},
       ""}};
  return tables;
}

}  // namespace jetperf::kinds
