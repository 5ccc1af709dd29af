#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>

namespace jetperf::test::tree {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// The end (one past the closing quote) of the string or character literal opening at s[i].
std::size_t literal_end(const std::string& s, std::size_t i) {
  const char quote = s[i];
  std::size_t j = i + 1;
  while (j < s.size() && s[j] != quote && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
  return std::min(j + 1, s.size());
}

}  // namespace

std::vector<std::pair<int, std::string>> string_literals(const std::string& s) {
  std::vector<std::pair<int, std::string>> out;
  std::size_t i = 0;
  int line = 1;
  bool line_start = true;  // only blanks since the last newline
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#' && line_start) {
      std::size_t j = i + 1;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
      if (s.compare(j, 7, "include") == 0) {
        while (i < s.size() && s[i] != '\n') ++i;
        continue;
      }
    }
    line_start = false;
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
      line += static_cast<int>(std::count(s.begin() + static_cast<std::ptrdiff_t>(i),
                                          s.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
      i = stop;
    } else if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') {
      const std::size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
      std::size_t end = s.find(close, open + 1);
      if (end == std::string::npos) end = s.size();
      out.emplace_back(line, s.substr(open + 1, end - open - 1));
      line += static_cast<int>(std::count(s.begin() + static_cast<std::ptrdiff_t>(i),
                                          s.begin() + static_cast<std::ptrdiff_t>(std::min(end, s.size())), '\n'));
      i = std::min(end + close.size(), s.size());
    } else if (c == '"' || c == '\'') {
      // 1'000'000: a digit separator, not a character literal.
      if (c == '\'' && i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))) {
        ++i;
        continue;
      }
      std::string text;
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < s.size()) ++j;
        text += s[j];
        ++j;
      }
      if (c == '"') out.emplace_back(line, text);
      i = j + 1;
    } else if (ident(c)) {
      // A whole identifier, so the R of a raw string is seen only at its start (uR"(...)").
      std::size_t j = i;
      while (j < s.size() && ident(s[j])) ++j;
      const std::string word = s.substr(i, j - i);
      const bool raw_prefix = word == "u8R" || word == "uR" || word == "UR" || word == "LR";
      i = raw_prefix && j < s.size() && s[j] == '"' ? j - 1 : j;
    } else {
      ++i;
    }
  }
  return out;
}

std::string without_comments(const std::string& s) {
  std::string out = s;
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      const std::size_t end = std::min(s.find('\n', i), s.size());
      blank(i, end);
      i = end;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t close = s.find("*/", i + 2);
      const std::size_t end = close == std::string::npos ? s.size() : close + 2;
      blank(i, end);
      i = end;
    } else if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' && (i == 0 || !ident(s[i - 1]) || s[i - 1] == '8' ||
                                                                      s[i - 1] == 'u' || s[i - 1] == 'U' || s[i - 1] == 'L')) {
      const std::size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::size_t close = s.find(")" + s.substr(i + 2, open - i - 2) + "\"", open + 1);
      i = close == std::string::npos ? s.size() : close + (open - i);
    } else if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))))) {
      i = literal_end(s, i);
    } else {
      ++i;
    }
  }
  return out;
}

bool is_board_path(const std::string& text) {
  if (text == "/sys" || starts_with(text, "/sys/") || starts_with(text, "/proc/")) return true;
  for (const char* dir : {"sys/class", "sys/devices", "sys/kernel", "sys/bus", "sys/firmware", "sys/module",
                          "sys/fs", "sys/power"}) {
    for (std::size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at + 1))
      if (at == 0 || text[at - 1] == '/') return true;
  }
  return false;
}

bool is_board_file(const std::string& text) {
  return is_board_path(text) || text == "/proc" || text == "/dev" || starts_with(text, "/dev/");
}

}  // namespace jetperf::test::tree
