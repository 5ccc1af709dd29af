// Replay of recorded board layouts (tests/fixtures/layouts/*.layout): each is expanded into a
// temporary sysfs tree and discovered as the daemon would, then checked against the family,
// module, L4T, GPU node, rails with their roles, the total, CPU clusters and thermal zones its
// `expect` lines name. Format (one entry a line; `#` starts a comment):
//   f <board path> <content>     a file; \0 is a NUL, \n a newline, one newline is appended
//                                unless the content ends in \0
//   l <board path> <target>      a symlink to another board path (written relative)
//   expect <key> <value...>      family, module, l4t, gpu, rails (NAME=role ...), total (a rail
//                                name or "sum"), clusters (a count), zones (zone types, offline
//                                ones included: they are channels without samples)
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/thermal_sensor.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::telemetry {
namespace {

namespace fs = std::filesystem;

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '0' || s[i + 1] == 'n')) {
      out += s[i + 1] == '0' ? '\0' : '\n';
      ++i;
    } else {
      out += s[i];
    }
  }
  if (out.empty() || out.back() != '\0') out += '\n';
  return out;
}

struct layout {
  std::map<std::string, std::string> expect;
};

// Writes the layout's tree under `root`; returns its expectations.
layout expand(const std::string& file, const std::string& root) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  layout l;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string op, path;
    words >> op >> path;
    std::string rest;
    std::getline(words, rest);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    if (op == "f") {
      fs::create_directories(fs::path(root + path).parent_path());
      std::ofstream(root + path, std::ios::binary) << unescape(rest);
    } else if (op == "l") {
      // Relative, as the simulator writes them: both sysfs_root and the OS follow it in the tree.
      const fs::path link(root + path);
      fs::create_directories(link.parent_path());
      fs::create_directory_symlink(fs::path(root + rest).lexically_relative(link.parent_path()), link);
    } else if (op == "expect") {
      l.expect[path] = rest;
    } else {
      throw std::runtime_error(file + ": unknown line '" + line + "'");
    }
  }
  return l;
}

std::vector<std::string> layout_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(test::fixtures_dir() + "/layouts"))
    if (e.path().extension() == ".layout") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string rails_text(const std::vector<rail_desc>& rails) {
  std::string s;
  for (const auto& r : rails) s += (s.empty() ? "" : " ") + r.name + "=" + r.role;
  return s;
}

std::string zones_text(const platform::sysfs_root& root) {
  std::string s;
  thermal_sensor zones(root);
  for (const auto& c : zones.channels()) s += (s.empty() ? "" : " ") + c.name.substr(5);
  return s;
}

void check_layout(const std::string& file) {
  SCOPED_TRACE(file);
  test::temp_dir t;
  const layout l = expand(file, t.path());
  ASSERT_FALSE(l.expect.empty()) << "a layout without expectations checks nothing";
  const platform::sysfs_root root(t.path());
  const auto info = platform::detect_board(root, [&] { return l.expect.at("family") == "dgpu"; });
  const auto found = platform::discover_board(root, info);
  const auto rails = discover_rails(root);
  const auto input = input_rail_index(rails);
  for (const auto& [key, want] : l.expect) {
    if (key == "family") EXPECT_EQ(info.family, want);
    else if (key == "module") EXPECT_EQ(info.module, want);
    else if (key == "l4t") EXPECT_EQ(info.l4t, want);
    else if (key == "gpu") EXPECT_EQ(found.gpu ? found.gpu->of_name : std::string("none"), want);
    else if (key == "rails") EXPECT_EQ(rails_text(rails), want);
    else if (key == "total") EXPECT_EQ(input ? rails[*input].name : std::string("sum"), want);
    else if (key == "clusters") EXPECT_EQ(std::to_string(found.clusters.size()), want);
    else if (key == "zones") EXPECT_EQ(zones_text(root), want);
    else ADD_FAILURE() << "unknown expectation '" << key << "'";
  }
}

TEST(board_layouts, at_least_twelve_recorded_layouts) { EXPECT_GE(layout_files().size(), 12u); }

TEST(board_layouts, each_is_discovered_as_recorded) {
  for (const auto& f : layout_files()) check_layout(f);
}

}  // namespace
}  // namespace jetperf::telemetry
