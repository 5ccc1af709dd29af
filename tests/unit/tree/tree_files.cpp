#include "tree_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace jetperf::test::tree {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::vector<std::string> split_path(const std::string& rel) {
  std::vector<std::string> parts;
  for (const auto& p : fs::path(rel)) parts.push_back(p.string());
  return parts;
}

std::vector<std::string> sources_under(const std::string& root, const std::string& dir) {
  static const std::set<std::string> exts = {".cpp", ".hpp", ".h", ".cc", ".cu", ".cuh", ".inl", ".ipp"};
  std::vector<std::string> out;
  const fs::path base(root);
  if (!fs::is_directory(base / dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(base / dir)) {
    if (e.is_regular_file() && exts.count(e.path().extension().string()))
      out.push_back(fs::relative(e.path(), base).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

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

std::string folder_of(const std::string& rel) {
  const auto p = split_path(rel);
  if (p[0] == "include") return "include/jetperf/" + p[2] + "/";
  if (p[0] == "src" && p.size() >= 4 && p[2] == "cuda") return "src/" + p[1] + "/cuda/";
  return p[0] == "src" ? "src/" + p[1] + "/" : p[0] + "/";
}

std::vector<library_file> library_files(const std::string& root, const library_graph& g) {
  std::vector<library_file> out;
  for (const char* dir : {"src", "include/jetperf", "kernels", "client"}) {
    if (std::string(dir) == "client" && !g.libraries.count("client")) continue;
    for (auto& f : sources_under(root, dir))
      if (auto owner = owner_of(f, g)) out.push_back({std::move(f), *owner});
  }
  std::sort(out.begin(), out.end(), [](const library_file& a, const library_file& b) { return a.path < b.path; });
  return out;
}

std::vector<project_include> project_includes(const std::string& root, const std::vector<library_file>& files) {
  static const std::regex include_re(R"(^\s*#\s*include\s*[<"](jetperf/([^/>"]+)/[^>"]+)[>"])");
  std::vector<project_include> out;
  for (const auto& f : files) {
    std::istringstream in(read_text((fs::path(root) / f.path).string()));
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      std::smatch m;
      if (std::regex_search(line, m, include_re)) out.push_back({f.path, n, f.owner, m[1], m[2]});
    }
  }
  return out;
}

}  // namespace jetperf::test::tree
