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

// Every piece after the tag's kind is KEY=VALUE: a wrapped tag rejoined at the wrong place is not.
bool tag_is_well_formed(const std::string& text) {
  std::string inner = trim(text);
  if (!inner.empty() && inner.front() == '<') inner.erase(0, 1);
  const size_t close = inner.find('>');
  if (close != std::string::npos) inner.erase(close);
  const auto toks = tokens_of(inner);
  for (size_t i = 1; i < toks.size(); ++i)
    if (toks[i].find('=') == std::string::npos) return false;
  return true;
}

// A tag opens with '<' and a section keyword (PARAM, POWER_MODEL, ...), or '<' alone when a wrap
// cut it there.
bool starts_like_tag(const std::string& line) {
  const size_t k = line.find_first_not_of(" \t", 1);
  return k == std::string::npos || (line[k] >= 'A' && line[k] <= 'Z');
}

// An argument name as the files write them (CORE_0, MAX_FREQ_KNEXT, WARN): upper case, digits and
// '_', starting with a letter. The tail of a wrapped sysfs path never looks like one.
bool is_arg_name(const std::string& s) {
  if (s.empty() || s.front() < 'A' || s.front() > 'Z') return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Both numeric (a clock value cut by a wrap) or both all lower-case letters (on, auto).
bool same_value_kind(const std::string& head, const std::string& tail) {
  auto all = [](const std::string& s, char lo, char hi) {
    for (char c : s)
      if (c < lo || c > hi) return false;
    return !s.empty();
  };
  // "-1" (no limit) may be cut right after its sign.
  const bool head_numeric = head == "-" || (!head.empty() && all(head.front() == '-' ? head.substr(1) : head, '0', '9'));
  return (head_numeric && all(tail, '0', '9')) || (all(head, 'a', 'z') && all(tail, 'a', 'z'));
}

int parse_id(const std::string& s, int line, const char* what) {
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno) fail(line, std::string("bad ") + what + " '" + s + "'");
  return static_cast<int>(v);
}

enum class section { none, param, mode };

// Three fields naming a known PARAM and one of its arguments.
bool known_setting(const nvpmodel_conf& conf, const std::vector<std::string>& t) {
  if (t.size() != 3) return false;
  const nvpmodel_param* p = conf.find_param(t[0]);
  return p && p->find_arg(t[1]);
}

// A setting line (or the head of a wrapped one) starts with a PARAM name or a piece of one.
bool starts_setting(const nvpmodel_conf& conf, const std::string& first) {
  for (const auto& p : conf.params)
    if (p.name.compare(0, first.size(), first) == 0) return true;
  return false;
}

// The first one or two fields of a setting cut by a wrap: a PARAM, then a piece of its argument.
bool partial_setting(const nvpmodel_conf& conf, const std::vector<std::string>& t) {
  if (t.empty()) return false;
  if (t.size() == 1) return starts_setting(conf, t[0]);
  const nvpmodel_param* p = conf.find_param(t[0]);
  if (!p) return false;
  for (const auto& a : p->args)
    if (a.name.compare(0, t[1].size(), t[1]) == 0) return true;
  return false;
}

// One line of a PARAM section that is not a whole argument line: the tail of one the wrap cut,
// joined to the previous argument. False when it cannot be such a tail.
bool append_arg_tail(nvpmodel_param_arg* prev, bool hwmon, const std::vector<std::string>& toks) {
  if (!prev) return false;
  if (prev->path.empty() && toks.size() == 1) {
    prev->path = toks[0];
  } else if (!hwmon && toks.size() == 1) {
    // The tail of a wrapped path (paths hold no spaces, so the pieces join without one).
    prev->path += toks[0];
  } else if (hwmon && toks.size() == 1 && !prev->attribute.empty()) {
    prev->attribute += toks[0];
  } else if (hwmon && toks.size() == 1) {
    // HWMON lines end with an attribute file name, which holds no '/'.
    if (toks[0].find('/') == std::string::npos) {
      prev->attribute = toks[0];
    } else {
      prev->path += toks[0];
    }
  } else if (hwmon && toks.size() == 2 && prev->attribute.empty()) {
    prev->path += toks[0];
    prev->attribute = toks[1];
  } else {
    return false;
  }
  return true;
}

// Reads the file line by line. Files copied from a terminal come wrapped: a tag, an argument
// line, a setting or a comment may continue on the next lines, so each line is read in the light
// of the ones before it (a pending tag or setting, a comment just seen).
class conf_reader {
 public:
  void read_line(const std::string& line, int line_no) {
    if (line.empty()) {
      prev_comment_ = false;
      return;
    }
    if (line.front() == '#') {
      prev_comment_ = true;
      return;
    }
    if (!pending_tag_.empty()) {
      continue_tag(line);
      prev_comment_ = false;
      return;
    }
    if (line.front() == '<' && prev_comment_ && !starts_like_tag(line)) return;  // a comment's tail: "<'"
    if (line.front() == '<') {
      start_tag(line, line_no);
      prev_comment_ = false;
      return;
    }
    const auto toks = tokens_of(line);
    if (where_ == section::none) {
      if (prev_comment_) return;  // the tail of a wrapped comment
      fail(line_no, "text outside any section: '" + line + "'");
    }
    if (where_ == section::param) {
      read_arg_line(toks, line, line_no);
    } else {
      read_setting_line(toks, line, line_no);
    }
  }

  nvpmodel_conf finish() {
    if (!pending_tag_.empty()) fail(pending_tag_line_, "unterminated tag '" + pending_tag_ + "'");
    if (!pending_setting_.empty()) fail(pending_setting_line_, "incomplete setting '" + pending_setting_ + "'");
    if (conf_.modes.empty()) throw platform_error("nvpmodel.conf: no POWER_MODEL section");
    if (!have_pm_config_) throw platform_error("nvpmodel.conf: missing mandatory < PM_CONFIG DEFAULT=... >");
    if (!conf_.find_mode(conf_.default_mode))
      throw platform_error("nvpmodel.conf: PM_CONFIG DEFAULT=" + std::to_string(conf_.default_mode) +
                           " names no POWER_MODEL");
    return std::move(conf_);
  }

 private:
  void start_tag(const std::string& line, int line_no) {
    if (line.find('>') == std::string::npos) {
      pending_tag_ = line;
      pending_tag_line_ = line_no;
    } else {
      apply_tag(line, line_no);
    }
  }

  void continue_tag(const std::string& line) {
    // Terminal wrapping cut the tag at a space or inside a word: the cut was inside a word when
    // keeping it leaves a piece that is not KEY=VALUE.
    const std::string spaced = pending_tag_ + " " + line;
    pending_tag_ = tag_is_well_formed(spaced) ? spaced : pending_tag_ + line;
    if (pending_tag_.find('>') != std::string::npos) {
      apply_tag(pending_tag_, pending_tag_line_);
      pending_tag_.clear();
    }
  }

  void apply_tag(const std::string& tag_text, int line) {
    tag t = parse_tag(tag_text, line);
    if (t.kind == "PARAM") {
      nvpmodel_param p;
      p.type = t.get("TYPE");
      p.name = t.get("NAME");
      if (p.type.empty() || p.name.empty()) fail(line, "PARAM needs TYPE= and NAME=");
      conf_.params.push_back(std::move(p));
      where_ = section::param;
    } else if (t.kind == "POWER_MODEL") {
      nvpmodel_mode m;
      m.id = parse_id(t.get("ID"), line, "POWER_MODEL ID");
      m.name = t.get("NAME");
      if (m.name.empty()) fail(line, "POWER_MODEL needs NAME=");
      if (conf_.find_mode(m.id)) fail(line, "duplicate POWER_MODEL ID=" + std::to_string(m.id));
      conf_.modes.push_back(std::move(m));
      where_ = section::mode;
    } else if (t.kind == "PM_CONFIG") {
      conf_.default_mode = parse_id(t.get("DEFAULT"), line, "PM_CONFIG DEFAULT");
      have_pm_config_ = true;
      where_ = section::none;
    } else if (t.kind == "FAN_CONFIG") {
      conf_.default_fan_mode = t.get("DEFAULT");
      where_ = section::none;
    } else {
      fail(line, "unknown section '" + t.kind + "'");
    }
  }

  void read_arg_line(const std::vector<std::string>& toks, const std::string& line, int line_no) {
    nvpmodel_param& p = conf_.params.back();
    const bool hwmon = p.type == "HWMON";
    nvpmodel_param_arg* prev = p.args.empty() ? nullptr : &p.args.back();
    // "ARG PATH" ("ARG DIR ATTRIBUTE" for HWMON), or an ARG alone whose path the wrap moved to
    // the next line. What is left is the tail of a wrapped line.
    const bool named = is_arg_name(toks[0]) && (toks.size() == 1 || toks[1].front() == '/');
    const bool arg_line = hwmon ? toks.size() == 3 || (named && toks.size() <= 2)
                                : toks.size() == 2 || (named && toks.size() == 1);
    if (prev_comment_ && !(named && arg_line)) return;  // the tail of a wrapped comment
    if (arg_line && prev && prev->path.empty() && toks.size() >= 2) {
      // The previous line was an argument name cut by the wrap: "FREQ_TABLE_KN" + "EXT /sys/...".
      prev->name += toks[0];
      prev->path = toks[1];
      if (toks.size() == 3) prev->attribute = toks[2];
    } else if (arg_line) {
      // A name alone: its path was pushed to the next line by the wrap.
      p.args.push_back({toks[0], toks.size() > 1 ? toks[1] : std::string(), toks.size() > 2 ? toks[2] : std::string()});
    } else if (!append_arg_tail(prev, hwmon, toks)) {
      fail(line_no, "bad argument line in PARAM " + p.name + ": '" + line + "'");
    }
    prev_comment_ = false;
  }

  // POWER_MODEL settings: PARAM ARG VALUE.
  void read_setting_line(const std::vector<std::string>& toks, const std::string& line, int line_no) {
    nvpmodel_mode& m = conf_.modes.back();
    if (prev_comment_ && pending_setting_.empty() && (toks.size() > 3 || !starts_setting(conf_, toks[0]))) {
      return;  // the tail of a wrapped comment
    }
    if (!pending_setting_.empty()) {
      continue_setting(line, m);
    } else if (toks.size() == 3) {
      m.settings.push_back({toks[0], toks[1], toks[2]});
    } else if (toks.size() < 3) {
      // One piece that cannot start a setting is the tail of the previous value ("16000" + "00000",
      // "au" + "to"): only digits after digits or letters after letters, so a stray word after a
      // clock value is still an error rather than part of a number.
      const bool continues_value = toks.size() == 1 && !m.settings.empty() && !starts_setting(conf_, toks[0]) &&
                                   same_value_kind(m.settings.back().value, toks[0]);
      if (continues_value) {
        m.settings.back().value += toks[0];
      } else {
        pending_setting_ = line;
        pending_setting_line_ = line_no;
      }
    } else {
      fail(line_no, "bad setting in POWER_MODEL " + m.name + ": '" + line + "'");
    }
    prev_comment_ = false;
  }

  void continue_setting(const std::string& line, nvpmodel_mode& m) {
    // The cut fell at a space or inside a word: prefer the reading that names a known PARAM and
    // argument, then one still on its way to naming them (cut twice), then any three fields.
    const std::string glued_text = pending_setting_ + line;
    const std::string spaced_text = pending_setting_ + " " + line;
    auto glued = tokens_of(glued_text);
    auto spaced = tokens_of(spaced_text);
    std::vector<std::string> chosen;
    if (known_setting(conf_, glued)) {
      chosen = glued;
    } else if (known_setting(conf_, spaced)) {
      chosen = spaced;
    } else if (glued.size() < 3 && partial_setting(conf_, glued)) {
      pending_setting_ = glued_text;
    } else if (spaced.size() < 3 && partial_setting(conf_, spaced)) {
      pending_setting_ = spaced_text;
    } else if (spaced.size() == 3) {
      chosen = spaced;
    } else if (glued.size() == 3) {
      chosen = glued;
    } else {
      fail(pending_setting_line_, "incomplete setting '" + pending_setting_ + "'");
    }
    if (!chosen.empty()) {
      m.settings.push_back({chosen[0], chosen[1], chosen[2]});
      pending_setting_.clear();
    }
  }

  nvpmodel_conf conf_;
  section where_ = section::none;
  bool have_pm_config_ = false;
  // A comment line: the next line may be its wrapped tail, which has lost its '#'.
  bool prev_comment_ = false;
  std::string pending_tag_;  // a tag wrapped over several terminal lines
  int pending_tag_line_ = 0;
  std::string pending_setting_;  // a POWER_MODEL line wrapped before its third field
  int pending_setting_line_ = 0;
};

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
  conf_reader reader;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    reader.read_line(trim(raw), line_no);
  }
  return reader.finish();
}

}  // namespace jetperf::platform
