#include "layer_order.hpp"

#include <filesystem>
#include <set>
#include <sstream>

namespace jetperf::test::tree {

namespace {

// "src/CMakeLists.txt:12" -> ("src/CMakeLists.txt", 12)
std::pair<std::string, int> split_where(const std::string& where) {
  const auto colon = where.rfind(':');
  return {where.substr(0, colon), std::stoi(where.substr(colon + 1))};
}

}  // namespace

bool layer_order::below(const std::string& lower, const std::string& upper) const {
  return layer_of.at(lower) < layer_of.at(upper);
}

std::string layer_order::why_not_below(const std::string& lower, const std::string& upper) const {
  const bool peers = layer_of.at(lower) == layer_of.at(upper);
  return lower + " (line " + std::to_string(line_of.at(lower)) + ") is " + (peers ? "a peer of " : "above ") + upper +
         " (line " + std::to_string(line_of.at(upper)) + ") in " + k_layer_order_file;
}

layer_order parse_layer_order(const std::string& text) {
  layer_order order;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::istringstream words(line.substr(0, line.find('#')));
    std::vector<std::string> layer;
    for (std::string name; words >> name;) {
      if (order.layer_of.count(name)) {
        order.repeated.emplace_back(n, name);
        continue;
      }
      order.layer_of[name] = static_cast<int>(order.layers.size());
      order.line_of[name] = n;
      layer.push_back(name);
    }
    if (!layer.empty()) order.layers.push_back(std::move(layer));
  }
  return order;
}

std::optional<layer_order> read_layer_order(const std::string& root) {
  const auto path = std::filesystem::path(root) / k_layer_order_file;
  if (!std::filesystem::exists(path)) return std::nullopt;
  return parse_layer_order(read_text(path.string()));
}

void check_layer_order(const library_graph& g, const layer_order& order, const std::vector<project_include>& includes,
                       std::vector<violation>& out) {
  const std::string file = k_layer_order_file;
  for (const auto& lib : g.libraries)
    if (!order.layer_of.count(lib))
      out.push_back({violation_kind::unlisted_library, file, 0, {},
                     std::string(file) + ": library " + lib + " is declared in CMake but has no layer here; add it "
                                                              "on the line of the layer it belongs to"});
  for (const auto& [name, line] : order.line_of)
    if (!g.libraries.count(name))
      out.push_back({violation_kind::unlisted_library, file, line, {},
                     file + ":" + std::to_string(line) + ": " + name + " is no declared library; take it off"});
  for (const auto& [line, name] : order.repeated)
    out.push_back({violation_kind::unlisted_library, file, line, {},
                   file + ":" + std::to_string(line) + ": " + name + " is listed twice"});

  const auto listed = [&](const std::string& lib) { return order.layer_of.count(lib) > 0; };
  for (const auto& [from, to] : g.links) {
    for (const auto& [lib, where] : to) {
      if (!listed(from) || !listed(lib) || order.below(lib, from)) continue;
      const auto [cmake_file, line] = split_where(where);
      out.push_back({violation_kind::upward_link, cmake_file, line, {},
                     where + ": " + from + " links " + lib + ", but " + order.why_not_below(lib, from) +
                         "; dependencies point downwards only (DESIGN.md section 2)"});
    }
  }
  for (const auto& inc : includes) {
    if (inc.library == inc.owner || !listed(inc.owner) || !listed(inc.library)) continue;
    if (order.below(inc.library, inc.owner)) continue;
    out.push_back({violation_kind::upward_include, inc.file, inc.line, inc.header,
                   inc.file + ":" + std::to_string(inc.line) + ": " + inc.owner + " includes <" + inc.header +
                       "> of library " + inc.library + ", but " + order.why_not_below(inc.library, inc.owner) +
                       "; move the code down or the header up"});
  }
}

void check_unused_links(const library_graph& g, const std::vector<library_file>& files,
                        const std::vector<project_include>& includes, std::vector<violation>& out) {
  std::set<std::string> with_files;
  for (const auto& f : files) with_files.insert(f.owner);
  std::set<std::pair<std::string, std::string>> used;  // (includer, included library)
  for (const auto& inc : includes) used.emplace(inc.owner, inc.library);
  for (const auto& [from, to] : g.links) {
    if (!with_files.count(from)) continue;
    for (const auto& [lib, where] : to) {
      if (used.count({from, lib})) continue;
      const auto [cmake_file, line] = split_where(where);
      out.push_back({violation_kind::unused_link, cmake_file, line, {},
                     where + ": " + from + " links " + lib + ", but no file of " + from +
                         " includes a header of " + lib + " (<jetperf/" + lib +
                         "/...>); take the link off, the libraries that use " + lib + " link it themselves"});
    }
  }
}

}  // namespace jetperf::test::tree
