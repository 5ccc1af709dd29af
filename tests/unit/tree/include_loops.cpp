#include "include_loops.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tree_files.hpp"

namespace jetperf::test::tree {

namespace {

namespace fs = std::filesystem;
using unit_graph = std::map<std::string, std::set<std::string>>;

// "include/jetperf/measure/protocols/point.hpp" or "src/measure/protocols/point.cpp" under dir
// "measure" -> "protocols/point".
std::string unit_of(const std::string& rel_to_dir) { return fs::path(rel_to_dir).replace_extension().generic_string(); }

unit_graph read_units(const std::string& root, const std::string& dir) {
  static const std::regex include_re(R"(^\s*#\s*include\s*[<"]jetperf/([^>"]+)\.(hpp|h)[>"])");
  unit_graph g;
  const std::string header_dir = "include/jetperf/" + dir + "/";
  const std::string src_dir = "src/" + dir + "/";
  for (const auto* base : {&header_dir, &src_dir}) {
    for (const auto& rel : sources_under(root, *base)) {
      const std::string from = unit_of(rel.substr(base->size()));
      auto& to = g[from];
      std::istringstream lines(read_text((fs::path(root) / rel).string()));
      std::smatch m;
      for (std::string line; std::getline(lines, line);) {
        if (!std::regex_search(line, m, include_re) || !starts_with(m[1].str(), dir + "/")) continue;
        const std::string target = unit_of(m[1].str().substr(dir.size() + 1));
        if (target != from) to.insert(target);
      }
    }
  }
  return g;
}

// A path back to `start` from `at` along g's edges, or empty; `seen` bounds the search.
bool path_back(const unit_graph& g, const std::string& start, const std::string& at, std::set<std::string>& seen,
               std::vector<std::string>& path) {
  const auto it = g.find(at);
  if (it == g.end()) return false;
  for (const auto& next : it->second) {
    if (next == start) return path.push_back(next), true;
    if (!seen.insert(next).second) continue;
    path.push_back(next);
    if (path_back(g, start, next, seen, path)) return true;
    path.pop_back();
  }
  return false;
}

}  // namespace

std::vector<std::string> include_loops(const std::string& root, const std::string& dir) {
  const auto g = read_units(root, dir);
  std::vector<std::string> loops;
  std::set<std::string> in_a_loop;
  for (const auto& unit : g) {
    if (in_a_loop.count(unit.first)) continue;
    std::set<std::string> seen;
    std::vector<std::string> path{unit.first};
    if (!path_back(g, unit.first, unit.first, seen, path)) continue;
    std::string text;
    for (const auto& u : path) {
      in_a_loop.insert(u);
      text += (text.empty() ? "" : " -> ") + u;
    }
    loops.push_back(text);
  }
  std::sort(loops.begin(), loops.end());
  return loops;
}

}  // namespace jetperf::test::tree
