#include <jetperf/platform/nvpmodel_output.hpp>

#include <cctype>
#include <regex>
#include <sstream>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(trim(line));
  return out;
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

}  // namespace

nvpmodel_query parse_nvpmodel_query(const std::string& output) {
  nvpmodel_query q;
  bool have_name = false;
  for (const auto& line : lines_of(output)) {
    if (starts_with(line, "NV Fan Mode:")) {
      q.fan_mode = trim(line.substr(12));
    } else if (starts_with(line, "NV Power Mode:")) {
      q.mode_name = trim(line.substr(14));
      have_name = true;
    } else if (starts_with(line, "NVPM WARN:")) {
      q.warnings.push_back(trim(line.substr(10)));
    } else if (have_name && q.mode_id < 0 && all_digits(line)) {
      q.mode_id = std::stoi(line);
    }
  }
  if (!have_name) throw platform_error("nvpmodel -q printed no 'NV Power Mode' line: '" + trim(output) + "'");
  return q;
}

std::vector<nvpmodel_verbose_value> parse_nvpmodel_query_verbose(const std::string& output) {
  static const std::regex re(
      R"(NVPM VERB: PARAM (\S+): ARG (\S+): PATH (\S+): REAL_VAL: (\S+) CONF_VAL: (\S+))");
  std::vector<nvpmodel_verbose_value> values;
  for (const auto& line : lines_of(output)) {
    std::smatch m;
    if (std::regex_search(line, m, re)) values.push_back({m[1], m[2], m[3], m[4], m[5]});
  }
  return values;
}

nvpmodel_conf parse_nvpmodel_dump(const std::string& output) {
  static const std::regex pm_re(R"(^PM_CONFIG: DEFAULT=(\w+)\((\d+)\))");
  static const std::regex param_re(R"(^PARAM TYPE=(\w+) NAME=(\w+))");
  static const std::regex mode_re(R"(^POWER_MODEL: ID=(\d+) NAME=(\w+))");
  nvpmodel_conf conf;
  enum { none, param, mode } where = none;
  for (const auto& line : lines_of(output)) {
    if (!starts_with(line, "NVPM VERB:")) continue;
    const std::string body = trim(line.substr(10));
    std::smatch m;
    if (body.empty()) {
      where = none;
    } else if (std::regex_search(body, m, pm_re)) {
      conf.default_mode = std::stoi(m[2]);
    } else if (std::regex_search(body, m, param_re)) {
      conf.params.push_back({m[1], m[2], {}});
      where = param;
    } else if (std::regex_search(body, m, mode_re)) {
      nvpmodel_mode md;
      md.id = std::stoi(m[1]);
      md.name = m[2];
      conf.modes.push_back(std::move(md));
      where = mode;
    } else if (where == param) {
      auto t = tokens_of(body);
      if (t.size() >= 2) conf.params.back().args.push_back({t[0], t[1], t.size() >= 3 ? t[2] : ""});
    } else if (where == mode) {
      auto t = tokens_of(body);
      if (t.size() == 3) conf.modes.back().settings.push_back({t[0], t[1], t[2]});
    }
  }
  if (conf.modes.empty()) throw platform_error("nvpmodel -p --verbose printed no POWER_MODEL");
  return conf;
}

std::vector<std::string> nvpmodel_errors(const std::string& output) {
  std::vector<std::string> errors;
  for (const auto& line : lines_of(output)) {
    auto pos = line.find("NVPM ERROR:");
    if (pos != std::string::npos) errors.push_back(trim(line.substr(pos + 11)));
  }
  return errors;
}

}  // namespace jetperf::platform
