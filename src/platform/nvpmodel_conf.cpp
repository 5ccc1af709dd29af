#include <jetperf/platform/nvpmodel_conf.hpp>

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

namespace {

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void fail(int line, const std::string& what) {
  throw platform_error("nvpmodel.conf line " + std::to_string(line) + ": " + what);
}

/// KEY=VALUE attributes of a "< TAG K=V ... >" header; tolerant of "<TAG" and missing spaces.
struct tag {
  std::string kind;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::string get(const std::string& key) const {
    for (const auto& kv : attrs)
      if (kv.first == key) return kv.second;
    return {};
  }
};

tag parse_tag(const std::string& text, int line) {
  std::string inner = trim(text);
  if (inner.empty() || inner.front() != '<') fail(line, "expected '<'");
  size_t close = inner.find('>');
  if (close == std::string::npos) fail(line, "unterminated tag '" + inner + "'");
  inner = inner.substr(1, close - 1);
  auto toks = tokens_of(inner);
  if (toks.empty()) fail(line, "empty tag");
  tag t;
  t.kind = toks[0];
  for (size_t i = 1; i < toks.size(); ++i) {
    auto eq = toks[i].find('=');
    if (eq == std::string::npos) {
      // "NAME= X" (a space after '='): take the next token as the value.
      fail(line, "malformed attribute '" + toks[i] + "' in " + t.kind);
    }
    t.attrs.emplace_back(toks[i].substr(0, eq), toks[i].substr(eq + 1));
  }
  return t;
}

int parse_id(const std::string& s, int line, const char* what) {
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno) fail(line, std::string("bad ") + what + " '" + s + "'");
  return static_cast<int>(v);
}

enum class section { none, param, mode };

}  // namespace

const nvpmodel_param_arg* nvpmodel_param::find_arg(const std::string& arg_name) const {
  for (const auto& a : args)
    if (a.name == arg_name) return &a;
  return nullptr;
}

std::optional<std::string> nvpmodel_mode::value(const std::string& param, const std::string& arg) const {
  std::optional<std::string> found;
  // The last write wins, as it does when nvpmodel applies the settings in order.
  for (const auto& s : settings)
    if (s.param == param && s.arg == arg) found = s.value;
  return found;
}

const nvpmodel_param* nvpmodel_conf::find_param(const std::string& param_name) const {
  for (const auto& p : params)
    if (p.name == param_name) return &p;
  return nullptr;
}

const nvpmodel_mode* nvpmodel_conf::find_mode(int id) const {
  for (const auto& m : modes)
    if (m.id == id) return &m;
  return nullptr;
}

const nvpmodel_mode* nvpmodel_conf::find_mode(const std::string& mode_name) const {
  for (const auto& m : modes)
    if (m.name == mode_name) return &m;
  return nullptr;
}

long long nvpmodel_clock_value(const std::string& value) {
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno) throw platform_error("nvpmodel clock value '" + value + "' is not an integer");
  return v == -1 ? 2147483647LL : v;
}

nvpmodel_conf parse_nvpmodel_conf(const std::string& text) {
  nvpmodel_conf conf;
  section where = section::none;
  bool have_pm_config = false;
  bool prev_comment = false;
  size_t prev_length = 0;
  std::string pending_tag;  // a tag wrapped over several terminal lines
  int pending_tag_line = 0;
  std::string pending_setting;  // a POWER_MODEL line wrapped before its third field
  int pending_setting_line = 0;

  auto known_setting = [&](const std::vector<std::string>& t) {
    if (t.size() != 3) return false;
    const nvpmodel_param* p = conf.find_param(t[0]);
    return p && p->find_arg(t[1]);
  };

  auto handle_tag = [&](const std::string& tag_text, int line) {
    tag t = parse_tag(tag_text, line);
    if (t.kind == "PARAM") {
      nvpmodel_param p;
      p.type = t.get("TYPE");
      p.name = t.get("NAME");
      if (p.type.empty() || p.name.empty()) fail(line, "PARAM needs TYPE= and NAME=");
      conf.params.push_back(std::move(p));
      where = section::param;
    } else if (t.kind == "POWER_MODEL") {
      nvpmodel_mode m;
      m.id = parse_id(t.get("ID"), line, "POWER_MODEL ID");
      m.name = t.get("NAME");
      if (m.name.empty()) fail(line, "POWER_MODEL needs NAME=");
      if (conf.find_mode(m.id)) fail(line, "duplicate POWER_MODEL ID=" + std::to_string(m.id));
      conf.modes.push_back(std::move(m));
      where = section::mode;
    } else if (t.kind == "PM_CONFIG") {
      conf.default_mode = parse_id(t.get("DEFAULT"), line, "PM_CONFIG DEFAULT");
      have_pm_config = true;
      where = section::none;
    } else if (t.kind == "FAN_CONFIG") {
      conf.default_fan_mode = t.get("DEFAULT");
      where = section::none;
    } else {
      fail(line, "unknown section '" + t.kind + "'");
    }
  };

  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    const std::string line = trim(raw);
    const size_t this_length = raw.size();
    if (line.empty()) {
      prev_comment = false;
      prev_length = 0;
      continue;
    }
    if (line.front() == '#') {
      prev_comment = true;
      prev_length = this_length;
      continue;
    }
    if (!pending_tag.empty()) {
      // Terminal wrapping cut the tag: glue the pieces back (the cut may fall inside a word).
      pending_tag += (prev_length >= 80 ? "" : " ") + line;
      if (pending_tag.find('>') != std::string::npos) {
        handle_tag(pending_tag, pending_tag_line);
        pending_tag.clear();
      }
      prev_comment = false;
      prev_length = this_length;
      continue;
    }
    if (line.front() == '<') {
      if (line.find('>') == std::string::npos) {
        pending_tag = line;
        pending_tag_line = line_no;
      } else {
        handle_tag(line, line_no);
      }
      prev_comment = false;
      prev_length = this_length;
      continue;
    }
    auto toks = tokens_of(line);
    if (where == section::none) {
      // The continuation of a wrapped comment line has lost its '#'.
      if (prev_comment) {
        prev_length = this_length;
        continue;
      }
      fail(line_no, "text outside any section: '" + line + "'");
    }
    if (where == section::param) {
      nvpmodel_param& p = conf.params.back();
      const bool hwmon = p.type == "HWMON";
      if (toks.size() == 1 && !p.args.empty()) {
        nvpmodel_param_arg& prev = p.args.back();
        // A wrapped path: either the whole path moved to this line, or its tail did.
        if (prev.path.empty()) {
          prev.path = toks[0];
        } else if (hwmon && prev.attribute.empty() && toks[0].find('/') == std::string::npos &&
                   prev_length < 80) {
          prev.attribute = toks[0];
        } else if (hwmon && !prev.attribute.empty()) {
          prev.attribute += toks[0];
        } else {
          prev.path += toks[0];
        }
      } else if (toks.size() == 1) {
        p.args.push_back({toks[0], {}, {}});
      } else if (toks.size() == 2) {
        p.args.push_back({toks[0], toks[1], {}});
      } else if (toks.size() == 3 && hwmon) {
        p.args.push_back({toks[0], toks[1], toks[2]});
      } else {
        fail(line_no, "bad argument line in PARAM " + p.name + ": '" + line + "'");
      }
      prev_comment = false;
      prev_length = this_length;
      continue;
    }
    // POWER_MODEL settings: PARAM ARG VALUE.
    nvpmodel_mode& m = conf.modes.back();
    if (!pending_setting.empty()) {
      auto glued = tokens_of(pending_setting + line);
      auto spaced = tokens_of(pending_setting + " " + line);
      std::vector<std::string> chosen;
      if (known_setting(glued)) chosen = glued;
      else if (known_setting(spaced)) chosen = spaced;
      else if (spaced.size() == 3) chosen = spaced;
      else if (glued.size() == 3) chosen = glued;
      else fail(pending_setting_line, "incomplete setting '" + pending_setting + "'");
      m.settings.push_back({chosen[0], chosen[1], chosen[2]});
      pending_setting.clear();
    } else if (toks.size() == 3) {
      m.settings.push_back({toks[0], toks[1], toks[2]});
    } else if (toks.size() < 3) {
      const bool continues_value = toks.size() == 1 && !m.settings.empty() && prev_length >= 80 &&
                                   !conf.find_param(toks[0]);
      if (continues_value) {
        m.settings.back().value += toks[0];
      } else {
        pending_setting = line;
        pending_setting_line = line_no;
      }
    } else {
      fail(line_no, "bad setting in POWER_MODEL " + m.name + ": '" + line + "'");
    }
    prev_comment = false;
    prev_length = this_length;
  }
  if (!pending_tag.empty()) fail(pending_tag_line, "unterminated tag '" + pending_tag + "'");
  if (!pending_setting.empty()) fail(pending_setting_line, "incomplete setting '" + pending_setting + "'");
  if (conf.modes.empty()) throw platform_error("nvpmodel.conf: no POWER_MODEL section");
  if (!have_pm_config) throw platform_error("nvpmodel.conf: missing mandatory < PM_CONFIG DEFAULT=... >");
  if (!conf.find_mode(conf.default_mode))
    throw platform_error("nvpmodel.conf: PM_CONFIG DEFAULT=" + std::to_string(conf.default_mode) +
                         " names no POWER_MODEL");
  return conf;
}

}  // namespace jetperf::platform
