#pragma once
// Just enough of CMake's language to read the project's own CMakeLists.txt files as data: the
// command invocations in order, with their line, and `set`/`list(APPEND)` variables expanded in
// their arguments. Control flow is not evaluated: a command inside if() counts as if it ran, so a
// dependency added only with CUDA is still a declared dependency.
#include <map>
#include <string>
#include <vector>

namespace jetperf::test::tree {

struct cmake_command {
  std::string name;               ///< lower case: "jetperf_area", "target_link_libraries"
  std::vector<std::string> args;  ///< variables expanded, quotes removed
  int line = 0;                   ///< 1-based line of the command name
};

/// Parses `text` (comments, quoted and bracket arguments, nested parentheses). `variables` holds
/// the values known before the file (PROJECT_SOURCE_DIR, ...) and receives the file's own
/// set()/list(APPEND)/file(GLOB) results; an unknown ${VAR} expands to nothing.
std::vector<cmake_command> read_cmake_commands(const std::string& text,
                                               std::map<std::string, std::vector<std::string>>& variables);

}  // namespace jetperf::test::tree
