#pragma once
// The architecture check: the libraries and their links as the CMake files declare them, held
// against the layer order (tests/unit/tree/layers.txt, DESIGN.md section 2) and against what the
// sources include, spell and open. A header belongs to the library of its folder
// (include/jetperf/<x>/ and src/<x>/ -> jetperf_<x>; src/<x>/cuda/ and kernels/ -> jetperf_cuda;
// client/ -> the client); a library may include only its own headers and those of the libraries
// it links, directly or not, and link only libraries below it in the layer order, each of them
// for a header it includes. Run: build/tests/unit_tree (or ctest -R include_graph).
#include <map>
#include <set>
#include <string>
#include <vector>

namespace jetperf::test::tree {

enum class violation_kind {
  undeclared_include,  ///< a library includes a header of one it does not link
  unknown_library,     ///< a folder or an included header belongs to no declared library
  dependency_cycle,    ///< the declared links form a cycle
  sys_path_literal,    ///< a board path spelled outside platform (and the simulator)
  client_compiles_src, ///< the client compiles a source file of src/ instead of linking its library
  upward_link,         ///< a declared link to a library that is not below in the layer order
  upward_include,      ///< an include of a header of a library that is not below in the layer order
  unlisted_library,    ///< the layer order and the declared libraries disagree (missing, unknown, twice)
  unused_link,         ///< a declared link to a library none of whose headers the linking library includes
  raw_board_io,        ///< a file opened by a /sys, /proc or /dev path outside platform (and telemetry's sysfs readers)
};

struct violation {
  violation_kind kind;
  std::string file;     ///< relative to the tree's root
  int line = 0;
  std::string header;   ///< the included header, for undeclared_include and upward_include
  std::string message;  ///< "file:line: ..." for a reader
};

/// Library -> directly linked library -> "file:line" of the declaration. Names without the
/// jetperf_ prefix ("store", "cuda", "core"); the client executable is "client".
struct library_graph {
  std::set<std::string> libraries;
  std::map<std::string, std::map<std::string, std::string>> links;

  /// Every library `lib` links, directly or not (without `lib` unless it is on a cycle).
  std::set<std::string> dependencies(const std::string& lib) const;
};

/// Reads src/CMakeLists.txt (jetperf_area, add_library, target_link_libraries; DEPS through
/// variables expanded), kernels/CMakeLists.txt and client/CMakeLists.txt under `root`.
library_graph read_library_graph(const std::string& root);

/// Every violation in the tree at `root`, in a stable order. The layer-order rules apply when the
/// tree has a layer order file (k_layer_order_file, layer_order.hpp); the real tree's test checks
/// that it has one.
std::vector<violation> check_tree(const std::string& root);

/// One message per line.
std::string to_string(const std::vector<violation>& violations);

}  // namespace jetperf::test::tree
