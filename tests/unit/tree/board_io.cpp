#include "board_io.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>

#include "source_text.hpp"
#include "tree_files.hpp"

namespace jetperf::test::tree {

namespace {

// platform owns the board's files; telemetry's sysfs readers (sysfs_file) keep a file open per
// channel for the sampler's fast path, on the host path platform's sysfs_root made.
bool may_open_board_files(const std::string& rel) {
  const auto p = split_path(rel);
  const std::string area = p[0] == "src" ? p[1] : p.size() >= 4 ? p[2] : "";
  if (area == "platform") return true;
  return area == "telemetry" && starts_with(p.back(), "sysfs_");
}

// The text between the bracket at code[open] and its match ("" when unmatched), literals skipped.
std::string bracketed(const std::string& code, std::size_t open) {
  const char o = code[open], c = o == '(' ? ')' : '}';
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == '"') {
      for (++i; i < code.size() && code[i] != '"'; ++i)
        if (code[i] == '\\') ++i;
    } else if (code[i] == o) {
      ++depth;
    } else if (code[i] == c && --depth == 0) {
      return code.substr(open + 1, i - open - 1);
    }
  }
  return {};
}

// What the opener's argument names that is a board path: "platform::paths::meminfo",
// "\"/proc/meminfo\"", or "".
std::string board_path_in(const std::string& argument) {
  static const std::regex table_re(R"(\b(?:platform::)?paths::\w+)");
  std::smatch m;
  if (std::regex_search(argument, m, table_re)) return m[0];
  for (const auto& [line, text] : string_literals(argument))
    if (is_board_file(text)) return "\"" + text + "\"";
  return {};
}

int line_at(const std::string& text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

void check_raw_board_io(const std::string& root, std::vector<violation>& out) {
  // A stream constructed on a path, a C or POSIX open, a std::filesystem look at a path.
  static const std::regex opener_re(
      R"((\b(?:std::)?(?:basic_)?[io]?fstream)\b(?:\s+\w+)?\s*[({]|)"
      R"((\b(?:fopen|freopen|open|openat|opendir|creat))\s*\(|)"
      R"((\b(?:fs|filesystem)::(?:directory_iterator|recursive_directory_iterator|exists|is_directory|)"
      R"(is_regular_file|canonical|read_symlink|status))\s*\()");
  std::vector<std::string> files = sources_under(root, "src");
  for (auto& f : sources_under(root, "include/jetperf")) files.push_back(std::move(f));
  for (const auto& rel : files) {
    if (may_open_board_files(rel)) continue;
    const std::string code = without_comments(read_text((std::filesystem::path(root) / rel).string()));
    for (auto it = std::sregex_iterator(code.begin(), code.end(), opener_re); it != std::sregex_iterator(); ++it) {
      const auto& m = *it;
      const std::size_t open = static_cast<std::size_t>(m.position(0) + m.length(0) - 1);
      const std::string path = board_path_in(bracketed(code, open));
      if (path.empty()) continue;
      const std::string call = m[1].matched ? m[1].str() : m[2].matched ? m[2].str() : m[3].str();
      const int line = line_at(code, static_cast<std::size_t>(m.position(0)));
      out.push_back({violation_kind::raw_board_io, rel, line, {},
                     rel + ":" + std::to_string(line) + ": " + call + " opens " + path +
                         " outside platform; read it through a platform function over sysfs_root (a simulated "
                         "board or a test's fixture tree then stands in for the board)"});
    }
  }
}

}  // namespace jetperf::test::tree
