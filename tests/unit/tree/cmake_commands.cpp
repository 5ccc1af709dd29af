#include "cmake_commands.hpp"

#include <algorithm>
#include <cctype>

namespace jetperf::test::tree {
namespace {

using variables_t = std::map<std::string, std::vector<std::string>>;

struct raw_arg {
  std::string text;
  bool quoted = false;  ///< a quoted or bracket argument is one argument even when it holds ';'
};

struct raw_command {
  std::string name;
  std::vector<raw_arg> args;
  int line = 0;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The number of '=' of a bracket opening "[==[" at s[i], or -1 when s[i] opens none.
int bracket_level(const std::string& s, std::size_t i) {
  if (i >= s.size() || s[i] != '[') return -1;
  std::size_t j = i + 1;
  while (j < s.size() && s[j] == '=') ++j;
  return j < s.size() && s[j] == '[' ? static_cast<int>(j - i - 1) : -1;
}

class scanner {
 public:
  explicit scanner(const std::string& s) : s_(s) {}

  std::vector<raw_command> commands() {
    std::vector<raw_command> out;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '#') {
        skip_comment();
      } else if (ident_start(c)) {
        std::size_t j = i_;
        while (j < s_.size() && ident_char(s_[j])) ++j;
        std::size_t k = j;
        while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t')) ++k;
        if (k < s_.size() && s_[k] == '(') {
          raw_command cmd;
          cmd.name = s_.substr(i_, j - i_);
          std::transform(cmd.name.begin(), cmd.name.end(), cmd.name.begin(),
                         [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
          cmd.line = line_;
          i_ = k + 1;
          read_args(cmd);
          out.push_back(std::move(cmd));
        } else {
          i_ = j;
        }
      } else {
        step();
      }
    }
    return out;
  }

 private:
  void step() {
    if (s_[i_] == '\n') ++line_;
    ++i_;
  }

  // "#[[ ... ]]" block comment or "# ..." to the end of the line.
  void skip_comment() {
    const int level = bracket_level(s_, i_ + 1);
    if (level >= 0) {
      ++i_;
      (void)bracket_content(level);
      return;
    }
    while (i_ < s_.size() && s_[i_] != '\n') ++i_;
  }

  // At "[==[": returns the text up to "]==]" and moves past it.
  std::string bracket_content(int level) {
    const std::string close = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
    const std::size_t start = i_ + static_cast<std::size_t>(level) + 2;
    std::size_t end = s_.find(close, start);
    if (end == std::string::npos) end = s_.size();
    std::string text = s_.substr(start, end - start);
    while (i_ < std::min(end + close.size(), s_.size())) step();
    return text;
  }

  void read_args(raw_command& cmd) {
    int depth = 1;
    raw_arg cur;
    bool have = false;
    auto flush = [&] {
      if (have) cmd.args.push_back(cur);
      cur = {};
      have = false;
    };
    while (i_ < s_.size() && depth > 0) {
      const char d = s_[i_];
      if (d == ' ' || d == '\t' || d == '\r' || d == '\n') {
        flush();
        step();
      } else if (d == '#' && !have) {
        skip_comment();
      } else if (d == '(') {
        flush();
        ++depth;
        step();
      } else if (d == ')') {
        flush();
        --depth;
        step();
      } else if (d == '"' && !have) {
        step();
        while (i_ < s_.size() && s_[i_] != '"') {
          if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
            step();
            cur.text += s_[i_] == 'n' ? '\n' : s_[i_];
          } else {
            cur.text += s_[i_];
          }
          step();
        }
        if (i_ < s_.size()) step();
        cur.quoted = true;
        have = true;
      } else if (d == '[' && !have && bracket_level(s_, i_) >= 0) {
        cur.text = bracket_content(bracket_level(s_, i_));
        cur.quoted = true;
        have = true;
      } else {
        cur.text += d;
        have = true;
        step();
      }
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ";" : "") + v[i];
  return out;
}

// ${NAME} innermost first (so ${${x}} works); $<...> and $ENV{...} stay as they are.
std::string expand(std::string text, const variables_t& vars) {
  std::size_t from = std::string::npos;
  while (true) {
    const std::size_t pos = text.rfind("${", from);
    if (pos == std::string::npos) break;
    const std::size_t end = text.find('}', pos);
    if (end == std::string::npos) break;
    const auto it = vars.find(text.substr(pos + 2, end - pos - 2));
    text.replace(pos, end - pos + 1, it == vars.end() ? std::string() : join(it->second));
    if (pos == 0) break;
    from = pos - 1;
  }
  return text;
}

std::vector<std::string> expand_args(const std::vector<raw_arg>& args, const variables_t& vars) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    std::string text = expand(a.text, vars);
    if (a.quoted) {
      out.push_back(text);
      continue;
    }
    // An unquoted argument is a list: "a;b" is two arguments, an empty expansion none.
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t semi = text.find(';', start);
      if (semi == std::string::npos) semi = text.size();
      if (semi > start) out.push_back(text.substr(start, semi - start));
      start = semi + 1;
    }
  }
  return out;
}

void apply_to_variables(const cmake_command& cmd, variables_t& vars) {
  const auto& a = cmd.args;
  if (cmd.name == "set" && !a.empty()) {
    std::vector<std::string> values;
    for (std::size_t i = 1; i < a.size() && a[i] != "CACHE" && a[i] != "PARENT_SCOPE"; ++i) values.push_back(a[i]);
    vars[a[0]] = values;
  } else if (cmd.name == "unset" && !a.empty()) {
    vars.erase(a[0]);
  } else if (cmd.name == "list" && a.size() >= 2 && a[0] == "APPEND") {
    auto& v = vars[a[1]];
    v.insert(v.end(), a.begin() + 2, a.end());
  } else if (cmd.name == "list" && a.size() >= 2 && a[0] == "REMOVE_ITEM") {
    auto& v = vars[a[1]];
    for (std::size_t i = 2; i < a.size(); ++i) v.erase(std::remove(v.begin(), v.end(), a[i]), v.end());
  } else if (cmd.name == "file" && a.size() >= 2 && (a[0] == "GLOB" || a[0] == "GLOB_RECURSE")) {
    // The tree is not globbed: the variable holds the patterns, which is what the checks need
    // (where a target takes its sources from).
    std::vector<std::string> patterns;
    for (std::size_t i = 2; i < a.size(); ++i) {
      if (a[i] == "CONFIGURE_DEPENDS" || a[i] == "FOLLOW_SYMLINKS") continue;
      if (a[i] == "LIST_DIRECTORIES" || a[i] == "RELATIVE") {
        ++i;
        continue;
      }
      patterns.push_back(a[i]);
    }
    vars[a[1]] = patterns;
  }
}

}  // namespace

std::vector<cmake_command> read_cmake_commands(const std::string& text, variables_t& variables) {
  std::vector<cmake_command> out;
  for (const auto& raw : scanner(text).commands()) {
    cmake_command cmd{raw.name, expand_args(raw.args, variables), raw.line};
    apply_to_variables(cmd, variables);
    out.push_back(std::move(cmd));
  }
  return out;
}

}  // namespace jetperf::test::tree
