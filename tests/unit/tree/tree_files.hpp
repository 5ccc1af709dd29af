#pragma once
// The source tree as the architecture check reads it: the files of each library's folders and
// the project headers they include.
#include <optional>
#include <string>
#include <vector>

#include "include_graph.hpp"

namespace jetperf::test::tree {

std::string read_text(const std::string& path);
bool starts_with(const std::string& s, const std::string& prefix);
/// "src/kinds/gemm/x.cpp" -> {"src", "kinds", "gemm", "x.cpp"}
std::vector<std::string> split_path(const std::string& rel);

/// C++ source files under root/dir, as paths relative to root, sorted.
std::vector<std::string> sources_under(const std::string& root, const std::string& dir);

/// The library a file belongs to by its folder; nullopt for files outside every library's folders.
std::optional<std::string> owner_of(const std::string& rel, const library_graph& g);
/// The library folder of a file for reports: "src/telemetry/", "include/jetperf/store/".
std::string folder_of(const std::string& rel);

struct library_file {
  std::string path;   ///< relative to the tree's root
  std::string owner;  ///< the library its folder names (declared or not)
};

/// Every source file of src/, include/jetperf/, kernels/ and (when the client is declared) client/
/// that belongs to a library folder, in path order.
std::vector<library_file> library_files(const std::string& root, const library_graph& g);

/// One `#include <jetperf/<library>/...>` (or "...") line.
struct project_include {
  std::string file;     ///< relative to the tree's root
  int line = 0;
  std::string owner;    ///< the library of the including file
  std::string header;   ///< "jetperf/store/job_store.hpp"
  std::string library;  ///< "store"
};

/// The project includes of `files`, in file and line order.
std::vector<project_include> project_includes(const std::string& root, const std::vector<library_file>& files);

}  // namespace jetperf::test::tree
