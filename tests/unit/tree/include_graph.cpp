#include "include_graph.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>
#include <tuple>

#include "cmake_commands.hpp"

namespace jetperf::test::tree {
namespace {

namespace fs = std::filesystem;
using variables_t = std::map<std::string, std::vector<std::string>>;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// "jetperf::store" and "jetperf_store" -> "store"; anything else (CUDA::cudart, ...) -> "".
std::string library_of_item(const std::string& item) {
  if (starts_with(item, "jetperf::")) return item.substr(9);
  if (starts_with(item, "jetperf_")) return item.substr(8);
  return {};
}

bool is_link_keyword(const std::string& a) {
  return a == "PUBLIC" || a == "PRIVATE" || a == "INTERFACE" || a == "LINK_PUBLIC" || a == "LINK_PRIVATE" ||
         a == "LINK_INTERFACE_LIBRARIES" || a == "debug" || a == "optimized" || a == "general";
}

variables_t base_variables(const fs::path& root, const std::string& dir) {
  const std::string r = root.string();
  const std::string d = (root / dir).string();
  return {{"PROJECT_SOURCE_DIR", {r}}, {"CMAKE_SOURCE_DIR", {r}},         {"jetperf_SOURCE_DIR", {r}},
          {"CMAKE_CURRENT_SOURCE_DIR", {d}}, {"CMAKE_CURRENT_LIST_DIR", {d}}};
}

std::vector<cmake_command> commands_of(const fs::path& root, const std::string& dir) {
  const fs::path file = root / dir / "CMakeLists.txt";
  if (!fs::exists(file)) return {};
  auto vars = base_variables(root, dir);
  return read_cmake_commands(read_text(file), vars);
}

// The client's executable is named jetperf; every other target is a library jetperf_<name>.
std::string target_name(const std::string& dir, const std::string& target) {
  if (dir == "client" && target == "jetperf") return "client";
  return target.find("::") == std::string::npos ? library_of_item(target) : std::string();
}

void read_declarations(const fs::path& root, const std::string& dir, library_graph& g) {
  const std::string file = dir + "/CMakeLists.txt";
  for (const auto& cmd : commands_of(root, dir)) {
    const auto& a = cmd.args;
    const std::string where = file + ":" + std::to_string(cmd.line);
    if (cmd.name == "jetperf_area") {
      std::string name, section;
      std::vector<std::string> deps;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == "NAME" || a[i] == "DEPS" || a[i] == "EXTRA_SOURCES") {
          section = a[i];
        } else if (section == "NAME") {
          name = a[i];
        } else if (section == "DEPS") {
          deps.push_back(a[i]);
        }
      }
      if (name.empty()) continue;
      g.libraries.insert(name);
      for (const auto& d : deps)
        if (auto lib = library_of_item(d); !lib.empty()) g.links[name].emplace(lib, where);
    } else if (cmd.name == "add_library" && !a.empty()) {
      const bool alias = a.size() >= 2 && a[1] == "ALIAS";
      if (auto lib = target_name(dir, a[0]); !lib.empty() && !alias) g.libraries.insert(lib);
    } else if (cmd.name == "add_executable" && !a.empty()) {
      if (target_name(dir, a[0]) == "client") g.libraries.insert("client");
    } else if (cmd.name == "target_link_libraries" && !a.empty()) {
      const std::string from = target_name(dir, a[0]);
      if (from.empty()) continue;
      for (std::size_t i = 1; i < a.size(); ++i) {
        if (is_link_keyword(a[i])) continue;
        // client/ is one unit: the jetperf executable over its own view library jetperf_client.
        if (auto lib = library_of_item(a[i]); !lib.empty() && lib != from) g.links[from].emplace(lib, where);
      }
    }
  }
}

std::vector<std::string> split_path(const std::string& rel) {
  std::vector<std::string> parts;
  for (const auto& p : fs::path(rel)) parts.push_back(p.string());
  return parts;
}

// The library a file belongs to by its folder; nullopt for files outside every library.
std::optional<std::string> owner_of(const std::string& rel, const library_graph& g) {
  const auto p = split_path(rel);
  if (p.size() >= 3 && p[0] == "src") {
    if (p.size() >= 4 && p[2] == "cuda" && g.libraries.count("cuda")) return std::string("cuda");
    return p[1];
  }
  if (p.size() >= 4 && p[0] == "include" && p[1] == "jetperf") return p[2];
  if (p.size() >= 2 && p[0] == "kernels") return std::string("cuda");
  if (p.size() >= 2 && p[0] == "client") return std::string("client");
  return std::nullopt;
}

// The library folder of a file for reports: "src/telemetry/", "include/jetperf/store/".
std::string folder_of(const std::string& rel) {
  const auto p = split_path(rel);
  if (p[0] == "include") return "include/jetperf/" + p[2] + "/";
  if (p[0] == "src" && p.size() >= 4 && p[2] == "cuda") return "src/" + p[1] + "/cuda/";
  return p[0] == "src" ? "src/" + p[1] + "/" : p[0] + "/";
}

bool is_source(const fs::path& p) {
  static const std::set<std::string> exts = {".cpp", ".hpp", ".h", ".cc", ".cu", ".cuh", ".inl", ".ipp"};
  return exts.count(p.extension().string()) > 0;
}

// Source files under root/dir, as paths relative to root, sorted.
std::vector<std::string> sources_under(const fs::path& root, const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::is_directory(root / dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
    if (e.is_regular_file() && is_source(e.path())) out.push_back(fs::relative(e.path(), root).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string join(const std::set<std::string>& s, const std::string& none) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out.empty() ? none : out;
}

std::set<std::string> direct_links(const library_graph& g, const std::string& lib) {
  std::set<std::string> out;
  if (auto it = g.links.find(lib); it != g.links.end())
    for (const auto& l : it->second) out.insert(l.first);
  return out;
}

void check_includes(const fs::path& root, const library_graph& g, std::vector<violation>& out) {
  static const std::regex include_re(R"(^\s*#\s*include\s*[<"](jetperf/([^/>"]+)/[^>"]+)[>"])");
  std::set<std::string> reported_folders;
  std::vector<std::string> files;
  for (const char* dir : {"src", "include/jetperf", "kernels", "client"}) {
    if (std::string(dir) == "client" && !g.libraries.count("client")) continue;
    for (auto& f : sources_under(root, dir)) files.push_back(std::move(f));
  }
  for (const auto& rel : files) {
    const auto owner = owner_of(rel, g);
    if (!owner) continue;
    if (!g.libraries.count(*owner)) {
      const std::string folder = folder_of(rel);
      if (reported_folders.insert(folder).second)
        out.push_back({violation_kind::unknown_library, rel, 0, {},
                       folder + ": no library is declared for this folder (jetperf_area(NAME " + *owner +
                           " ...) in src/CMakeLists.txt)"});
      continue;
    }
    const auto allowed = g.dependencies(*owner);
    std::istringstream in(read_text(root / rel));
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      std::smatch m;
      if (!std::regex_search(line, m, include_re)) continue;
      const std::string header = m[1], lib = m[2];
      const std::string at = rel + ":" + std::to_string(n) + ": ";
      if (lib == *owner || allowed.count(lib)) continue;
      if (!g.libraries.count(lib)) {
        out.push_back({violation_kind::unknown_library, rel, n, header,
                       at + "<" + header + "> belongs to no declared library (no jetperf_" + lib + ")"});
        continue;
      }
      out.push_back({violation_kind::undeclared_include, rel, n, header,
                     at + *owner + " includes <" + header + "> of library " + lib + ", but " + *owner +
                         " does not link " + lib + " (" + *owner + " links: " +
                         join(direct_links(g, *owner), "nothing") +
                         "); move the code down or the header up, or declare the link if it points downwards"});
    }
  }
}

// Tarjan's strongly connected components; one report per component, as a cycle from its first
// library in name order.
void check_cycles(const library_graph& g, std::vector<violation>& out) {
  std::map<std::string, int> index, low;
  std::set<std::string> on_stack;
  std::vector<std::string> stack;
  std::vector<std::set<std::string>> components;
  int next = 0;
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    on_stack.insert(v);
    for (const auto& w : direct_links(g, v)) {
      if (!index.count(w)) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack.count(w)) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      std::set<std::string> c;
      std::string w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack.erase(w);
        c.insert(w);
      } while (w != v);
      components.push_back(c);
    }
  };
  for (const auto& lib : g.libraries)
    if (!index.count(lib)) visit(lib);

  for (const auto& c : components) {
    const std::string start = *c.begin();
    if (c.size() == 1 && !direct_links(g, start).count(start)) continue;
    // The shortest way back to `start` inside the component.
    std::map<std::string, std::string> parent;
    std::deque<std::string> queue{start};
    std::string last;
    while (!queue.empty() && last.empty()) {
      const std::string v = queue.front();
      queue.pop_front();
      for (const auto& w : direct_links(g, v)) {
        if (!c.count(w)) continue;
        if (w == start) {
          last = v;
          break;
        }
        if (!parent.count(w)) {
          parent[w] = v;
          queue.push_back(w);
        }
      }
    }
    std::vector<std::string> path{start};
    for (std::string v = last; v != start; v = parent[v]) path.insert(path.begin() + 1, v);
    path.push_back(start);
    std::string chain, edges;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      chain += path[i] + " -> ";
      edges += (i ? "; " : "") + path[i] + " links " + path[i + 1] + " at " + g.links.at(path[i]).at(path[i + 1]);
    }
    chain += start;
    const std::string where = g.links.at(path[0]).at(path[1]);
    const auto colon = where.rfind(':');
    out.push_back({violation_kind::dependency_cycle, where.substr(0, colon), std::stoi(where.substr(colon + 1)), {},
                   where + ": dependency cycle " + chain + " (" + edges + ")"});
  }
}

// String literals of C++ source with their line; comments, character literals, digit separators
// and #include lines are skipped, raw strings read whole.
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

bool is_board_path(const std::string& text) {
  if (text == "/sys" || starts_with(text, "/sys/") || starts_with(text, "/proc/")) return true;
  for (const char* dir : {"sys/class", "sys/devices", "sys/kernel", "sys/bus", "sys/firmware", "sys/module",
                          "sys/fs", "sys/power"}) {
    for (std::size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at + 1))
      if (at == 0 || text[at - 1] == '/') return true;
  }
  return false;
}

void check_board_paths(const fs::path& root, std::vector<violation>& out) {
  std::vector<std::string> files = sources_under(root, "src");
  for (auto& f : sources_under(root, "include/jetperf")) files.push_back(std::move(f));
  for (const auto& rel : files) {
    const auto p = split_path(rel);
    const std::string area = p[0] == "src" ? p[1] : p.size() >= 4 ? p[2] : "";
    // platform owns the path table; the simulator writes whole fake board trees.
    if (area == "platform" || area == "sim") continue;
    for (const auto& [line, text] : string_literals(read_text(root / rel))) {
      if (!is_board_path(text)) continue;
      out.push_back({violation_kind::sys_path_literal, rel, line, {},
                     rel + ":" + std::to_string(line) + ": \"" + text +
                         "\" spells a board path outside platform; put it in "
                         "include/jetperf/platform/sysfs_paths.hpp and read it from platform::paths"});
    }
  }
}

void check_client_sources(const fs::path& root, std::vector<violation>& out) {
  const fs::path base = root / "client";
  for (const auto& cmd : commands_of(root, "client")) {
    const bool sources = (cmd.name == "add_executable" || cmd.name == "target_sources" || cmd.name == "add_library") &&
                         !cmd.args.empty() && target_name("client", cmd.args[0]) == "client";
    if (!sources) continue;
    for (std::size_t i = 1; i < cmd.args.size(); ++i) {
      const std::string& a = cmd.args[i];
      if (a == "PRIVATE" || a == "PUBLIC" || a == "INTERFACE" || a == "EXCLUDE_FROM_ALL" || a == "WIN32" ||
          a == "MACOSX_BUNDLE")
        continue;
      const fs::path p = fs::path(a).is_absolute() ? fs::path(a) : base / a;
      const std::string rel = p.lexically_normal().lexically_relative(root.lexically_normal()).generic_string();
      if (!starts_with(rel, "src/")) continue;
      const auto parts = split_path(rel);
      const std::string lib = parts.size() >= 3 ? "jetperf::" + parts[1] : "the library that holds it";
      out.push_back({violation_kind::client_compiles_src, "client/CMakeLists.txt", cmd.line, {},
                     "client/CMakeLists.txt:" + std::to_string(cmd.line) + ": the client compiles " + rel +
                         " into itself; it must link the library instead (" + lib + ")"});
    }
  }
}

}  // namespace

std::set<std::string> library_graph::dependencies(const std::string& lib) const {
  std::set<std::string> seen;
  std::deque<std::string> queue{lib};
  while (!queue.empty()) {
    const std::string v = queue.front();
    queue.pop_front();
    if (auto it = links.find(v); it != links.end())
      for (const auto& l : it->second)
        if (seen.insert(l.first).second) queue.push_back(l.first);
  }
  return seen;
}

library_graph read_library_graph(const std::string& root_dir) {
  const fs::path root(root_dir);
  library_graph g;
  for (const char* dir : {"src", "kernels", "client"}) read_declarations(root, dir, g);
  // Links to targets that are not the project's libraries (jetperf_warnings, jetperf_openblas, ...)
  // are not part of the graph.
  for (auto& [from, to] : g.links)
    for (auto it = to.begin(); it != to.end();) it = g.libraries.count(it->first) ? std::next(it) : to.erase(it);
  for (auto it = g.links.begin(); it != g.links.end();)
    it = g.libraries.count(it->first) ? std::next(it) : g.links.erase(it);
  return g;
}

std::vector<violation> check_tree(const std::string& root_dir) {
  const fs::path root(root_dir);
  const library_graph g = read_library_graph(root_dir);
  std::vector<violation> out;
  check_cycles(g, out);
  check_includes(root, g, out);
  check_board_paths(root, out);
  check_client_sources(root, out);
  std::sort(out.begin(), out.end(), [](const violation& a, const violation& b) {
    return std::tie(a.file, a.line, a.message) < std::tie(b.file, b.line, b.message);
  });
  return out;
}

std::string to_string(const std::vector<violation>& violations) {
  std::string out;
  for (const auto& v : violations) out += v.message + "\n";
  return out;
}

}  // namespace jetperf::test::tree
