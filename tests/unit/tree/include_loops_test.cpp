// No loops between the files of measure, stats and the kinds' toolkit (issue 57: measure/ with
// walls): over the real tree, and over a small tree holding the loop point_protocol.hpp and
// protocols/point.hpp once made.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <support/test_paths.hpp>

#include "include_loops.hpp"
#include "small_tree.hpp"

namespace jetperf::test::tree {
namespace {

using loops = std::vector<std::string>;

TEST(include_loops, measure_stats_and_the_kinds_toolkit_hold_none) {
  for (const char* dir : {"measure", "stats", "kinds/common"})
    EXPECT_EQ(include_loops(source_dir(), dir), loops{}) << dir;
}

TEST_F(small_tree, a_header_included_back_through_the_other_units_source_is_a_loop) {
  write("include/jetperf/measure/point_protocol.hpp", "#pragma once\n#include <jetperf/measure/point_context.hpp>\n");
  write("src/measure/point_protocol.cpp",
        "#include <jetperf/measure/point_protocol.hpp>\n\n#include <jetperf/measure/protocols/point.hpp>\n");
  write("include/jetperf/measure/protocols/point.hpp", "#pragma once\n  #include <jetperf/measure/point_protocol.hpp>\n");
  write("src/measure/protocols/point.cpp", "#include <jetperf/measure/protocols/point.hpp>\n");
  write("include/jetperf/measure/point_context.hpp", "#pragma once\n#include <jetperf/stats/latency_stats.hpp>\n");
  EXPECT_EQ(include_loops(dir_.path(), "measure"), loops{"point_protocol -> protocols/point -> point_protocol"});
  EXPECT_EQ(include_loops(dir_.path(), "stats"), loops{});
}

TEST_F(small_tree, one_header_in_two_units_and_a_longer_loop_are_told_once_each) {
  write("include/jetperf/stats/a.hpp", "#pragma once\n#include <jetperf/stats/b.hpp>\n");
  write("src/stats/a.cpp", "#include <jetperf/stats/a.hpp>\n");
  write("include/jetperf/stats/b.hpp", "#pragma once\n#include <jetperf/stats/c.hpp>\n");
  write("include/jetperf/stats/c.hpp", "#pragma once\n#include \"jetperf/stats/a.hpp\"\n");
  write("include/jetperf/stats/d.hpp", "#pragma once\n#include <jetperf/stats/a.hpp>\n");
  EXPECT_EQ(include_loops(dir_.path(), "stats"), loops{"a -> b -> c -> a"});
}

}  // namespace
}  // namespace jetperf::test::tree
