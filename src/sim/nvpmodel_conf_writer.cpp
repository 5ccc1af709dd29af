#include <jetperf/sim/nvpmodel_conf_writer.hpp>

#include <sstream>

namespace jetperf::sim {
namespace {

// A FILE/CLOCK arg line, plus its _KNEXT twin when the board has another kernel's path for it.
// On knext boards the plain line carries the older path and _KNEXT the one this board uses.
void arg_lines(std::ostringstream& o, const std::string& arg, const std::string& path, const std::string& alt,
               bool knext) {
  if (alt.empty()) {
    o << arg << ' ' << path << '\n';
  } else if (knext) {
    o << arg << ' ' << alt << '\n' << arg << "_KNEXT " << path << '\n';
  } else {
    o << arg << ' ' << path << '\n' << arg << "_KNEXT " << alt << '\n';
  }
}

std::string cpu_path(int core, const std::string& file) {
  return "/sys/devices/system/cpu/cpu" + std::to_string(core) + "/cpufreq/" + file;
}

bool cluster_active(const cpu_cluster& c, const mode_spec& m) {
  for (int on : m.online)
    if (on == c.cores.front()) return true;
  return false;
}

}  // namespace

std::string nvpmodel_conf_text(const board_profile& p) {
  std::ostringstream o;
  o << "#\n# nvpmodel.conf of the jetperf simulated board '" << p.name << "' (" << p.description << ").\n"
    << "# Written by jetperf in NVIDIA's nvpmodel.conf grammar; paths are board paths inside the\n"
    << "# simulated root. Mode ids, names and limits follow the real board's modes.\n#\n"
    << "# < PARAM TYPE=FILE|CLOCK|HWMON NAME=<param> > then '<ARG> <path>' lines;\n"
    << "# < POWER_MODEL ID=<id> NAME=<name> > then '<param> <ARG> <value>' lines (-1 = no limit);\n"
    << "# < PM_CONFIG DEFAULT=<id> > selects the default mode.\n#\n\n";

  o << "< PARAM TYPE=FILE NAME=CPU_ONLINE >\n";
  for (int i = 0; i < p.core_count(); ++i)
    o << "CORE_" << i << " /sys/devices/system/cpu/cpu" << i << "/online\n";
  o << '\n';
  auto pm = [&](const std::string& file) { return p.gpu_pm_dir + "/" + file; };
  auto pm_alt = [&](const std::string& file) { return p.gpu_pm_dir_alt.empty() ? "" : p.gpu_pm_dir_alt + "/" + file; };
  if (p.has_fbp_param) {
    o << "< PARAM TYPE=FILE NAME=FBP_POWER_GATING >\n";
    arg_lines(o, "FBP_PG_MASK", pm("fbp_pg_mask"), pm_alt("fbp_pg_mask"), p.knext);
    o << '\n';
  }
  if (p.has_tpc_param) {
    o << "< PARAM TYPE=FILE NAME=TPC_POWER_GATING >\n";
    arg_lines(o, "TPC_PG_MASK", pm("tpc_pg_mask"), pm_alt("tpc_pg_mask"), p.knext);
    o << '\n';
  }
  // Thor's GPU has no nvgpu power/control file to hold on while its clocks are written.
  if (p.nvgpu_sysfs) {
    o << "< PARAM TYPE=FILE NAME=GPU_POWER_CONTROL_ENABLE >\n";
    arg_lines(o, "GPU_PWR_CNTL_EN", pm("power/control"), pm_alt("power/control"), p.knext);
    o << "\n< PARAM TYPE=FILE NAME=GPU_POWER_CONTROL_DISABLE >\n";
    arg_lines(o, "GPU_PWR_CNTL_DIS", pm("power/control"), pm_alt("power/control"), p.knext);
    o << '\n';
  }

  for (const auto& c : p.clusters) {
    o << "< PARAM TYPE=CLOCK NAME=" << c.param << " >\n";
    int core = c.cores.front();
    o << "FREQ_TABLE " << cpu_path(core, "scaling_available_frequencies") << '\n'
      << "MAX_FREQ " << cpu_path(core, "scaling_max_freq") << '\n'
      << "MIN_FREQ " << cpu_path(core, "scaling_min_freq") << "\n\n";
  }
  o << "< PARAM TYPE=CLOCK NAME=GPU >\n";
  // Stock files list the three plain args, then their three _KNEXT twins.
  const std::string& alt = p.gpu_devfreq_dir_alt;
  const std::string& plain_dir = alt.empty() || !p.knext ? p.gpu_devfreq_dir : alt;
  const std::string& knext_dir = p.knext ? p.gpu_devfreq_dir : alt;
  const std::pair<const char*, const char*> gpu_args[] = {
      {"FREQ_TABLE", "available_frequencies"}, {"MAX_FREQ", "max_freq"}, {"MIN_FREQ", "min_freq"}};
  for (const auto& [arg, file] : gpu_args) o << arg << ' ' << plain_dir << '/' << file << '\n';
  if (!alt.empty())
    for (const auto& [arg, file] : gpu_args) o << arg << "_KNEXT " << knext_dir << '/' << file << '\n';
  o << '\n';
  if (!p.emc_cap_path.empty()) {
    o << "< PARAM TYPE=CLOCK NAME=EMC >\n";
    arg_lines(o, "MAX_FREQ", p.emc_cap_path, p.emc_cap_path_alt, p.knext);
    o << '\n';
  }
  if (p.has_oc_param) {
    o << "< PARAM TYPE=HWMON NAME=VDDIN_OC_LIMIT >\n"
      << "WARN " << p.oc_hwmon_dir << " curr1_max\n"
      << "CRIT " << p.oc_hwmon_dir << " curr1_crit\n\n";
  }

  for (const auto& m : p.modes) {
    o << "< POWER_MODEL ID=" << m.id << " NAME=" << m.name << " >\n";
    for (int i = 0; i < p.core_count(); ++i) {
      bool on = false;
      for (int c : m.online) on = on || c == i;
      o << "CPU_ONLINE CORE_" << i << ' ' << (on ? 1 : 0) << '\n';
    }
    if (p.has_fbp_param) o << "FBP_POWER_GATING FBP_PG_MASK " << m.fbp_pg_mask << '\n';
    if (p.has_tpc_param) o << "TPC_POWER_GATING TPC_PG_MASK " << m.tpc_pg_mask << '\n';
    // power/control "on" before the GPU clock writes and "auto" after them, as every stock file does.
    if (p.nvgpu_sysfs) o << "GPU_POWER_CONTROL_ENABLE GPU_PWR_CNTL_EN on\n";
    for (const auto& c : p.clusters) {
      if (!cluster_active(c, m)) continue;
      o << c.param << " MIN_FREQ " << m.cpu_min_khz << '\n' << c.param << " MAX_FREQ " << m.cpu_max_khz << '\n';
    }
    o << "GPU MIN_FREQ " << m.gpu_min_hz << '\n' << "GPU MAX_FREQ " << m.gpu_max_hz << '\n';
    if (p.nvgpu_sysfs) o << "GPU_POWER_CONTROL_DISABLE GPU_PWR_CNTL_DIS auto\n";
    if (!p.emc_cap_path.empty()) o << "EMC MAX_FREQ " << m.emc_max_hz << '\n';
    if (p.has_oc_param) o << "VDDIN_OC_LIMIT WARN " << m.oc_warn_ma << "\nVDDIN_OC_LIMIT CRIT " << m.oc_crit_ma << '\n';
    o << '\n';
  }
  o << "< PM_CONFIG DEFAULT=" << p.default_mode << " >\n";
  if (!p.default_fan_mode.empty()) o << "< FAN_CONFIG DEFAULT=" << p.default_fan_mode << " >\n";
  return o.str();
}

}  // namespace jetperf::sim
