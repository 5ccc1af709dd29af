#include <jetperf/platform/nvpmodel_tool.hpp>

#include <algorithm>
#include <cctype>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/subprocess.hpp>

namespace jetperf::platform {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string tail(const std::string& text, size_t max_chars = 400) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t.size() > max_chars ? "..." + t.substr(t.size() - max_chars) : t;
}

bool is_gating_arg(const nvpmodel_param& p, const nvpmodel_param_arg& a) {
  if (p.type != "FILE" || ends_with(a.name, "_KNEXT")) return false;
  return ends_with(a.name, "_PG_MASK") || p.name.find("POWER_GATING") != std::string::npos;
}

process_result run_checked(const std::string& program, const std::vector<std::string>& args,
                           std::chrono::milliseconds timeout, const std::string& input = {}) {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string cmd = program;
  for (const auto& a : args) cmd += " " + a;
  process_result r = run_process(argv, timeout, input);
  if (r.timed_out) throw platform_error(cmd + " timed out after " + std::to_string(timeout.count()) + " ms");
  auto errors = nvpmodel_errors(r.out + "\n" + r.err);
  if (!errors.empty()) {
    std::string msg;
    for (const auto& e : errors) msg += (msg.empty() ? "" : "; ") + e;
    throw platform_error(cmd + " failed: NVPM ERROR: " + msg);
  }
  if (r.exit_code != 0) {
    throw platform_error(cmd + " failed (" +
                         (r.term_signal ? "signal " + std::to_string(r.term_signal)
                                        : "exit " + std::to_string(r.exit_code)) +
                         "): " + tail(r.err.empty() ? r.out : r.err));
  }
  return r;
}

}  // namespace

std::vector<std::string> reboot_reasons(const nvpmodel_conf& conf, int from_id, int to_id) {
  std::vector<std::string> reasons;
  const nvpmodel_mode* from = conf.find_mode(from_id);
  const nvpmodel_mode* to = conf.find_mode(to_id);
  if (!to || from_id == to_id) return reasons;
  for (const auto& p : conf.params) {
    for (const auto& a : p.args) {
      if (!is_gating_arg(p, a)) continue;
      auto target = to->value(p.name, a.name);
      if (!target) continue;  // the target mode leaves the mask as it is
      // A mode that does not mention the mask has never gated anything: treat it as 0.
      std::string current = from ? from->value(p.name, a.name).value_or("0") : "unknown";
      if (current != *target) reasons.push_back(a.name + " " + current + " -> " + *target);
    }
  }
  return reasons;
}

nvpmodel_tool::nvpmodel_tool(std::string program, std::chrono::milliseconds timeout)
    : program_(std::move(program)), timeout_(timeout) {}

nvpmodel_query nvpmodel_tool::query() const {
  process_result r = run_checked(program_, {"-q"}, timeout_);
  nvpmodel_query q = parse_nvpmodel_query(r.out);
  for (const auto& w : q.warnings) spdlog::debug("nvpmodel -q: NVPM WARN: {}", w);
  return q;
}

nvpmodel_conf nvpmodel_tool::dump_config() const {
  process_result r = run_checked(program_, {"-p", "--verbose"}, timeout_);
  return parse_nvpmodel_dump(r.out + "\n" + r.err);
}

bool nvpmodel_tool::set_mode(int id, const nvpmodel_conf* conf, bool force) const {
  std::vector<std::string> reasons;
  if (conf) {
    const nvpmodel_mode* target = conf->find_mode(id);
    if (!target) {
      std::string valid;
      for (const auto& m : conf->modes) valid += (valid.empty() ? "" : ", ") + std::to_string(m.id) + " " + m.name;
      throw validation_error("power_mode", "power mode " + std::to_string(id) + " is not offered; valid: " + valid);
    }
    int current = query().mode_id;
    reasons = reboot_reasons(*conf, current, id);
    if (!reasons.empty() && !force) {
      std::string why;
      for (const auto& r : reasons) why += (why.empty() ? "" : ", ") + r;
      throw conflict("switching to power mode " + std::to_string(id) + " (" + target->name +
                         ") changes GPU power gating (" + why +
                         ") and needs a reboot: a job whose spec sets allow_reboot switches it and goes on "
                         "after the boot, or nvpmodel run on the board makes it the board's mode",
                     "power_mode");
    }
  }
  const std::string id_text = std::to_string(id);
  process_result r = run_checked(program_, {"-m", id_text}, timeout_, force ? "YES\n" : "");
  // nvpmodel asks before a reboot-needing change; without "YES" it keeps the old mode.
  const std::string said = lower(r.out + r.err);
  if (!force && said.find("reboot") != std::string::npos) {
    throw conflict("nvpmodel -m " + id_text + " asks for a reboot: " + tail(r.out + r.err) +
                       ": a job whose spec sets allow_reboot switches it and goes on after the boot",
                   "power_mode");
  }
  if (force && (!reasons.empty() || said.find("reboot") != std::string::npos)) {
    spdlog::warn("nvpmodel -m {} forced: the board applies it after a reboot", id);
    return true;
  }
  nvpmodel_query q = query();
  if (q.mode_id != id) {
    throw platform_error("nvpmodel -m " + id_text + " returned but the board reports mode " +
                         std::to_string(q.mode_id) + " (" + q.mode_name + ")");
  }
  return false;
}

}  // namespace jetperf::platform
