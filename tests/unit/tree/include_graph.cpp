#include "include_graph.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "board_io.hpp"
#include "cmake_commands.hpp"
#include "layer_order.hpp"
#include "source_text.hpp"
#include "tree_files.hpp"

namespace jetperf::test::tree {
namespace {

namespace fs = std::filesystem;
using variables_t = std::map<std::string, std::vector<std::string>>;

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
  return read_cmake_commands(read_text(file.string()), vars);
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

// Folders of no declared library, and includes of a library that the includer does not link
// (an include the layer order already reports as upward is not reported twice).
void check_includes(const std::vector<library_file>& files, const std::vector<project_include>& includes,
                    const library_graph& g, const layer_order* order, std::vector<violation>& out) {
  std::set<std::string> reported_folders;
  for (const auto& f : files) {
    if (g.libraries.count(f.owner)) continue;
    const std::string folder = folder_of(f.path);
    if (reported_folders.insert(folder).second)
      out.push_back({violation_kind::unknown_library, f.path, 0, {},
                     folder + ": no library is declared for this folder (jetperf_area(NAME " + f.owner +
                         " ...) in src/CMakeLists.txt)"});
  }
  std::map<std::string, std::set<std::string>> allowed;
  for (const auto& lib : g.libraries) allowed[lib] = g.dependencies(lib);
  for (const auto& inc : includes) {
    const std::string &owner = inc.owner, &lib = inc.library;
    if (!g.libraries.count(owner) || lib == owner || allowed[owner].count(lib)) continue;
    const std::string at = inc.file + ":" + std::to_string(inc.line) + ": ";
    if (!g.libraries.count(lib)) {
      out.push_back({violation_kind::unknown_library, inc.file, inc.line, inc.header,
                     at + "<" + inc.header + "> belongs to no declared library (no jetperf_" + lib + ")"});
      continue;
    }
    if (order && order->layer_of.count(lib) && order->layer_of.count(owner) && !order->below(lib, owner)) continue;
    out.push_back({violation_kind::undeclared_include, inc.file, inc.line, inc.header,
                   at + owner + " includes <" + inc.header + "> of library " + lib + ", but " + owner +
                       " does not link " + lib + " (" + owner + " links: " + join(direct_links(g, owner), "nothing") +
                       "); move the code down or the header up, or declare the link if it points downwards"});
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

void check_board_paths(const fs::path& root, std::vector<violation>& out) {
  std::vector<std::string> files = sources_under(root.string(), "src");
  for (auto& f : sources_under(root.string(), "include/jetperf")) files.push_back(std::move(f));
  for (const auto& rel : files) {
    const auto p = split_path(rel);
    const std::string area = p[0] == "src" ? p[1] : p.size() >= 4 ? p[2] : "";
    // platform owns the path table; the simulator writes whole fake board trees.
    if (area == "platform" || area == "sim") continue;
    for (const auto& [line, text] : string_literals(read_text((root / rel).string()))) {
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
  const auto order = read_layer_order(root_dir);
  const auto files = library_files(root_dir, g);
  const auto includes = project_includes(root_dir, files);
  std::vector<violation> out;
  check_cycles(g, out);
  check_includes(files, includes, g, order ? &*order : nullptr, out);
  if (order) check_layer_order(g, *order, includes, out);
  check_unused_links(g, files, includes, out);
  check_board_paths(root, out);
  check_raw_board_io(root_dir, out);
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
