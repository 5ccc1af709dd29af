#pragma once
// A small tree on disk for the architecture check's tests: CMakeLists.txt files, a layer order
// and source files written by the test, each tree holding the violation its test is about.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>

#include "include_graph.hpp"
#include "layer_order.hpp"

namespace jetperf::test::tree {

class small_tree : public ::testing::Test {
 protected:
  void cmake(const std::string& dir, const std::string& text) { write(dir + "/CMakeLists.txt", text); }
  void layers(const std::string& text) { write(k_layer_order_file, text); }
  void write(const std::string& rel, const std::string& text) { write_file(dir_.file(rel), text); }
  std::vector<violation> check() const { return check_tree(dir_.path()); }
  /// The violations of one rule, for a tree whose few files break others on the way (a link
  /// that the tree's two files do not both use, say) that are not the test's subject.
  std::vector<violation> check(violation_kind only) const {
    std::vector<violation> out;
    for (auto& v : check())
      if (v.kind == only) out.push_back(std::move(v));
    return out;
  }

  static std::string messages(const std::vector<violation>& v) { return to_string(v); }
  static bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

  temp_dir dir_;
};

}  // namespace jetperf::test::tree
