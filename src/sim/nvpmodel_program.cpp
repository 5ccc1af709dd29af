#include <jetperf/sim/nvpmodel_program.hpp>

#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include <jetperf/common/errors.hpp>
#include <jetperf/sim/kernel_write.hpp>

#include "file_io.hpp"

namespace fs = std::filesystem;

namespace jetperf::sim {
namespace {

constexpr const char* usage_text =
    "Usage: nvpmodel [OPTIONS]\n"
    "  -h, --help             Print this help\n"
    "  --verbose              Print verbose messages\n"
    "  -q, --query            Query the current power mode\n"
    "  -p, --parse            Only parse the config file\n"
    "  -m, --mode <id>        Set the power mode <id>\n"
    "  -d, --fan <mode>       Set the fan mode (quiet, cool)\n"
    "  -f, --conf <file>      Use <file> as the config file\n"
    "  -o, --os <android,l4t> Target OS\n"
    "  -u, --udata <file>     User data file\n"
    "  -w, --wait <sec>       Wait before applying\n"
    "  --boot                 Apply the stored mode as at boot\n";

struct options {
  bool help = false, verbose = false, query = false, parse = false, boot = false;
  int mode = -1;
  bool have_mode = false;
  std::string fan, conf;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string shown_value(const platform::nvpmodel_param* param, const std::string& value) {
  // -1 means INT_MAX for clocks; nvpmodel prints the number it uses.
  if (param && param->type == "CLOCK" && value == "-1") return "2147483647";
  return value;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

// HWMON params name "<device>/hwmon" plus an attribute; the attribute lives in its hwmonN child.
std::string hwmon_target(const std::string& root, const std::string& dir, const std::string& attr) {
  if (fs::exists(root + dir + "/" + attr)) return dir + "/" + attr;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root + dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("hwmon", 0) == 0 && fs::exists(e.path() / attr)) return dir + "/" + name + "/" + attr;
  }
  return dir + "/" + attr;
}

std::string setting_path(const board_profile& p, const std::string& root, const platform::nvpmodel_param& param,
                         const std::string& arg) {
  if (param.type == "HWMON") {
    const auto* a = param.find_arg(arg);
    return a ? hwmon_target(root, a->path, a->attribute) : std::string();
  }
  return nvpmodel_arg_path(p, param, arg);
}

bool parse_args(const std::vector<std::string>& args, options& o, std::ostream& out, std::ostream& err) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&](std::string& v) {
      if (i + 1 >= args.size()) {
        err << "nvpmodel: option '" << a << "' requires an argument\n" << usage_text;
        return false;
      }
      v = args[++i];
      return true;
    };
    std::string v;
    if (a == "-h" || a == "--help") o.help = true;
    else if (a == "--verbose") o.verbose = true;
    else if (a == "-q" || a == "--query") o.query = true;
    else if (a == "-p" || a == "--parse") o.parse = true;
    else if (a == "--boot") o.boot = true;
    else if (a == "-m" || a == "--mode") {
      if (!next(v)) return false;
      char* end = nullptr;
      long id = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || id < 0) {
        out << "NVPM ERROR: Invalid mode id: " << v << "\n";
        return false;
      }
      o.mode = static_cast<int>(id);
      o.have_mode = true;
    } else if (a == "-d" || a == "--fan") {
      if (!next(o.fan)) return false;
    } else if (a == "-f" || a == "--conf") {
      if (!next(o.conf)) return false;
    } else if (a == "-o" || a == "--os" || a == "-u" || a == "--udata" || a == "-w" || a == "--wait") {
      if (!next(v)) return false;
    } else {
      err << "nvpmodel: unrecognized option '" << a << "'\n" << usage_text;
      return false;
    }
  }
  return true;
}

void dump_conf(const board_profile& p, const platform::nvpmodel_conf& conf, std::ostream& out) {
  const auto* def = conf.find_mode(conf.default_mode);
  out << "NVPM VERB: PM_CONFIG: DEFAULT=" << (def ? def->name : "UNKNOWN") << '(' << conf.default_mode << ")\n";
  for (const auto& param : conf.params) {
    out << "NVPM VERB: PARAM TYPE=" << param.type << " NAME=" << param.name << '\n';
    for (const auto& arg : param.args) {
      if (ends_with(arg.name, "_KNEXT")) continue;
      out << "NVPM VERB: " << arg.name << ' ' << nvpmodel_arg_path(p, param, arg.name);
      if (!arg.attribute.empty()) out << ' ' << arg.attribute;
      out << '\n';
    }
  }
  out << "NVPM VERB:\n";
  for (const auto& m : conf.modes) {
    out << "NVPM VERB: POWER_MODEL: ID=" << m.id << " NAME=" << m.name << '\n';
    for (const auto& s : m.settings)
      out << "NVPM VERB: " << s.param << ' ' << s.arg << ' ' << shown_value(conf.find_param(s.param), s.value) << '\n';
    out << "NVPM VERB:\n";
  }
}

void query_verbose(const board_layout& layout, const board_profile& p, const platform::nvpmodel_conf& conf,
                   const platform::nvpmodel_mode& mode, std::ostream& out) {
  for (const auto& s : mode.settings) {
    const auto* param = conf.find_param(s.param);
    if (!param) continue;
    const std::string path = setting_path(p, layout.root(), *param, s.arg);
    auto real = detail::read_text(layout.root() + path);
    out << "NVPM VERB: PARAM " << s.param << ": ARG " << s.arg << ": PATH " << path
        << ": REAL_VAL: " << (real ? trim(*real) : std::string("(null)"))
        << " CONF_VAL: " << shown_value(param, s.value) << '\n';
  }
}

// A mode whose TPC/FBP gating differs from what the GPU runs with needs a reboot.
bool needs_reboot(const board_layout& layout, const board_profile& p, const platform::nvpmodel_conf& conf,
                  const platform::nvpmodel_mode& mode) {
  for (const auto& s : mode.settings) {
    if (s.arg != "TPC_PG_MASK" && s.arg != "FBP_PG_MASK") continue;
    const auto* param = conf.find_param(s.param);
    if (!param) continue;
    auto cur = detail::read_ll(layout.root() + nvpmodel_arg_path(p, *param, s.arg));
    if (!cur) continue;
    if (std::to_string(*cur) != s.value) return true;
  }
  return false;
}

// The config file -f names, else the board's /etc/nvpmodel.conf, and that path as nvpmodel shows it.
struct loaded_conf {
  platform::nvpmodel_conf conf;
  std::string shown;
};

// Reads and parses the config file; prints nvpmodel's error and returns nothing when it cannot.
std::optional<loaded_conf> load_conf(const board_layout& layout, const options& o, std::ostream& out) {
  const std::string conf_host = o.conf.empty() ? layout.root() + "/etc/nvpmodel.conf" : o.conf;
  loaded_conf loaded;
  loaded.shown = o.conf.empty() ? "/etc/nvpmodel.conf" : o.conf;
  auto text = detail::read_text(conf_host);
  if (!text) {
    out << "NVPM ERROR: failed to open config file " << loaded.shown << "\n";
    return std::nullopt;
  }
  try {
    loaded.conf = platform::parse_nvpmodel_conf(*text);
  } catch (const error& e) {
    out << "NVPM ERROR: failed to parse " << loaded.shown << ": " << e.what() << "\n";
    return std::nullopt;
  }
  if (o.verbose) {
    out << "NVPM VERB: Config file: " << loaded.shown << "\n"
        << "NVPM VERB: parsing done for " << loaded.shown << "\n";
  }
  return loaded;
}

// The mode needs a reboot: asked as the real tool asks. Returns the exit status.
int confirm_reboot(const board_layout& layout, int mode_id, nvpmodel_status& status, std::istream& in,
                   std::ostream& out) {
  out << "NVPM WARN: Golden image context is already created for this GPU\n"
      << "NVPM WARN: Reboot required for changing to this power mode: " << mode_id << "\n"
      << "NVPM WARN: DO YOU WANT TO REBOOT NOW? enter YES/yes to confirm:\n"
      << std::flush;
  std::string answer;
  std::getline(in, answer);
  answer = trim(answer);
  if (answer != "YES" && answer != "yes") {
    out << "NVPM WARN: power mode change not confirmed; the current mode is kept\n";
    return 1;
  }
  // The real tool stores the mode and reboots the machine; the simulated board cannot, so
  // the mode waits for its next boot (sim_board::create when jetperfd starts again).
  status.pending = mode_id;
  write_nvpmodel_status(layout, status);
  out << "NVPM WARN: power mode " << mode_id << " is applied when the board reboots\n";
  return 0;
}

// -m (or --boot's mode): applied, and `status` read again. An exit status when the run ends here.
std::optional<int> set_mode(const board_layout& layout, const platform::nvpmodel_conf& conf, const options& o,
                            nvpmodel_status& status, std::istream& in, std::ostream& out) {
  const auto* mode = conf.find_mode(o.mode);
  if (!mode) {
    out << "NVPM ERROR: Invalid mode id: " << o.mode << "\n";
    return 1;
  }
  if (!o.boot && needs_reboot(layout, layout.profile(), conf, *mode)) return confirm_reboot(layout, o.mode, status, in, out);
  try {
    apply_nvpmodel_mode(layout, conf, o.mode);
  } catch (const error& e) {
    out << "NVPM ERROR: " << e.what() << "\n";
    return 1;
  }
  status = read_nvpmodel_status(layout);
  return std::nullopt;
}

// -d: false (the error printed) when the board has no such fan mode.
bool set_fan(const board_layout& layout, const platform::nvpmodel_conf& conf, const std::string& fan,
             nvpmodel_status& status, std::ostream& out) {
  const board_profile& p = layout.profile();
  bool known = false;
  for (const auto& f : p.fan_modes) known = known || f == fan;
  if (p.fan_modes.empty()) {
    out << "NVPM ERROR: fan mode is not supported on this platform\n";
    return false;
  }
  if (!known) {
    out << "NVPM ERROR: Invalid fan mode: " << fan << "\n";
    return false;
  }
  if (status.mode < 0) status.mode = conf.default_mode;
  status.fan_mode = fan;
  write_nvpmodel_status(layout, status);
  return true;
}

// -q: the current mode (and fan mode, where the board has one). Returns the exit status.
int query(const board_layout& layout, const platform::nvpmodel_conf& conf, const nvpmodel_status& status, bool verbose,
          std::ostream& out) {
  const board_profile& p = layout.profile();
  const int id = status.mode >= 0 ? status.mode : conf.default_mode;
  const auto* mode = conf.find_mode(id);
  if (!mode) {
    out << "NVPM ERROR: Invalid mode id: " << id << "\n";
    return 1;
  }
  if (verbose) query_verbose(layout, p, conf, *mode, out);
  if (!p.fan_modes.empty()) {
    const std::string fan = status.fan_mode.empty() ? conf.default_fan_mode : status.fan_mode;
    if (fan.empty()) out << "NVPM WARN: fan mode is not set!\n";
    else out << "NV Fan Mode:" << fan << "\n";
  }
  out << "NV Power Mode: " << mode->name << "\n" << mode->id << "\n";
  return 0;
}

}  // namespace

std::string nvpmodel_arg_path(const board_profile& p, const platform::nvpmodel_param& param, const std::string& arg) {
  const auto* a = param.find_arg(arg);
  if (!a) return {};
  if (p.knext) {
    if (const auto* k = param.find_arg(arg + "_KNEXT")) return k->path;
  }
  return a->path;
}

void apply_nvpmodel_mode(const board_layout& layout, const platform::nvpmodel_conf& conf, int mode_id) {
  const board_profile& p = layout.profile();
  const auto* mode = conf.find_mode(mode_id);
  if (!mode) throw not_found("Invalid mode id: " + std::to_string(mode_id), "mode");
  for (const auto& s : mode->settings) {
    const auto* param = conf.find_param(s.param);
    if (!param) throw platform_error("unknown PARAM " + s.param + " in mode " + mode->name);
    const std::string path = setting_path(p, layout.root(), *param, s.arg);
    if (path.empty()) throw platform_error("PARAM " + s.param + " has no ARG " + s.arg);
    // FREQ_TABLE is read, never written.
    if (s.arg == "FREQ_TABLE") continue;
    kernel_write(p, layout.root(), path, shown_value(param, s.value));
  }
  auto status = read_nvpmodel_status(layout);
  status.mode = mode_id;
  // The last mode set wins over one waiting for the boot.
  status.pending = -1;
  if (status.fan_mode.empty()) status.fan_mode = conf.default_fan_mode;
  write_nvpmodel_status(layout, status);
}

bool boot_nvpmodel(const board_layout& layout, const platform::nvpmodel_conf& conf) {
  const auto status = read_nvpmodel_status(layout);
  if (status.pending < 0) return false;
  apply_nvpmodel_mode(layout, conf, status.pending);
  return true;
}

int nvpmodel_main(const board_layout& layout, const std::vector<std::string>& args, std::istream& in,
                  std::ostream& out, std::ostream& err) {
  options o;
  if (!parse_args(args, o, out, err)) return 1;
  if (o.help) {
    out << "Nvidia Power Model Tool Version 1.1.2 (jetperf simulated board)\n" << usage_text;
    return 0;
  }
  try {
    const auto loaded = load_conf(layout, o, out);
    if (!loaded) return 1;
    const platform::nvpmodel_conf& conf = loaded->conf;
    if (o.parse) {
      if (o.verbose) {
        out << "succeed to parse file " << loaded->shown << ".\n";
        dump_conf(layout.profile(), conf, out);
      }
      return 0;
    }

    auto status = read_nvpmodel_status(layout);
    if (o.boot && !o.have_mode) {
      o.mode = status.pending >= 0 ? status.pending : status.mode >= 0 ? status.mode : conf.default_mode;
      o.have_mode = true;
    }
    if (o.have_mode) {
      if (const auto exit_status = set_mode(layout, conf, o, status, in, out)) return *exit_status;
    }
    if (!o.fan.empty() && !set_fan(layout, conf, o.fan, status, out)) return 1;
    if (o.query) return query(layout, conf, status, o.verbose, out);
    return 0;
  } catch (const error& e) {
    out << "NVPM ERROR: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace jetperf::sim
