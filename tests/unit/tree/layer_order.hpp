#pragma once
// The layer order of the libraries, written once in a small file the check reads (DESIGN.md
// section 2: "dependencies point downwards only"), and the rules that hold the declared links and
// the includes against it: no link or include to a library that is not below, and no declared
// link that the linking library's files do not use.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "include_graph.hpp"
#include "tree_files.hpp"

namespace jetperf::test::tree {

/// Where a tree keeps its layer order, relative to its root.
inline constexpr const char* k_layer_order_file = "tests/unit/tree/layers.txt";

/// One layer a line, lowest first; the libraries named on one line are peers (neither may use the
/// other). '#' starts a comment.
struct layer_order {
  std::vector<std::vector<std::string>> layers;
  std::map<std::string, int> layer_of;  ///< library -> index into layers
  std::map<std::string, int> line_of;   ///< library -> line of the file
  std::vector<std::pair<int, std::string>> repeated;  ///< (line, name) of a name listed a second time

  /// Whether `lower` sits on a layer below `upper` (both listed).
  bool below(const std::string& lower, const std::string& upper) const;
  /// "store (line 3) is not below jobs (line 9) in tests/unit/tree/layers.txt"
  std::string why_not_below(const std::string& lower, const std::string& upper) const;
};

/// The order at root/k_layer_order_file; nullopt when the tree has no such file.
std::optional<layer_order> read_layer_order(const std::string& root);
layer_order parse_layer_order(const std::string& text);

/// Upward (or sideways) links and includes, and libraries the order and the CMake files do not
/// both name.
void check_layer_order(const library_graph& g, const layer_order& order, const std::vector<project_include>& includes,
                       std::vector<violation>& out);

/// Declared links that no file of the linking library uses by including a header of the linked
/// one. A library with no files of its own (jetperf_core, an aggregate; the CUDA plugin module)
/// is not checked: its links are what it is for.
void check_unused_links(const library_graph& g, const std::vector<library_file>& files,
                        const std::vector<project_include>& includes, std::vector<violation>& out);

}  // namespace jetperf::test::tree
