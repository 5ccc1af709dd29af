// The architecture check's rules beyond the include graph, over the real tree and over small
// trees that each hold one violation: the layer order written once (tests/unit/tree/layers.txt,
// DESIGN.md section 2) against a link or an include that points up or sideways, a declared link
// that nothing uses (telemetry -> store and measure -> workloads once were), and a file opened by
// a /sys, /proc or /dev path outside platform (multi_dnn once read /proc/meminfo itself).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <support/test_paths.hpp>

#include "include_graph.hpp"
#include "layer_order.hpp"
#include "small_tree.hpp"

namespace jetperf::test::tree {
namespace {

TEST(layer_order, the_real_tree_lists_every_library_in_design_md_order) {
  const auto order = read_layer_order(source_dir());
  ASSERT_TRUE(order) << k_layer_order_file << " is missing";
  const auto g = read_library_graph(source_dir());
  for (const auto& lib : g.libraries) EXPECT_TRUE(order->layer_of.count(lib)) << lib;
  EXPECT_TRUE(order->repeated.empty());
  // DESIGN.md: daemon/http -> api -> kinds -> jobs -> measure -> (telemetry, workloads) -> platform.
  const std::vector<std::string> chain = {"api", "kinds", "jobs", "measure", "telemetry", "platform", "common"};
  for (std::size_t i = 0; i + 1 < chain.size(); ++i)
    EXPECT_TRUE(order->below(chain[i + 1], chain[i])) << chain[i + 1] << " below " << chain[i];
  EXPECT_TRUE(order->below("workloads", "measure"));
  EXPECT_FALSE(order->below("telemetry", "workloads"));  // peers
  EXPECT_FALSE(order->below("workloads", "telemetry"));
  // The CUDA half is a plugin: workloads may not link it, nor it workloads.
  EXPECT_FALSE(order->below("cuda", "workloads"));
  EXPECT_TRUE(order->below("backend", "cuda"));
  // DESIGN.md: src/stats, pure maths below telemetry: no board, clock, sampler, spec or JSON. It
  // sits on common's floor beside platform, models, tegrastats and traces (peers: neither
  // includes the other), below telemetry, the store and measure, which may use it.
  for (const char* above : {"telemetry", "store", "measure", "jobs", "kinds"})
    EXPECT_TRUE(order->below("stats", above)) << "stats below " << above;
  EXPECT_TRUE(order->below("common", "stats"));
  for (const char* peer : {"platform", "models", "tegrastats", "traces"}) {
    EXPECT_FALSE(order->below(peer, "stats")) << peer << " is stats' peer";
    EXPECT_FALSE(order->below("stats", peer)) << "stats is " << peer << "'s peer";
  }
}

TEST(layer_order, a_line_is_a_layer_of_peers_and_comments_are_skipped) {
  const auto order = parse_layer_order("# lowest first\ncommon\n\nstore platform  # peers\njobs\nstore\n");
  ASSERT_EQ(order.layers.size(), 3u);
  EXPECT_EQ(order.layers[1], (std::vector<std::string>{"store", "platform"}));
  EXPECT_EQ(order.line_of.at("jobs"), 5);
  EXPECT_TRUE(order.below("common", "platform"));
  EXPECT_FALSE(order.below("store", "platform"));
  EXPECT_FALSE(order.below("jobs", "store"));
  ASSERT_EQ(order.repeated.size(), 1u);
  EXPECT_EQ(order.repeated[0], std::make_pair(6, std::string("store")));
  EXPECT_EQ(order.why_not_below("store", "platform"),
            "store (line 4) is a peer of platform (line 4) in tests/unit/tree/layers.txt");
}

TEST_F(small_tree, a_link_upwards_is_reported_with_the_include_it_lets_through) {
  layers("common\nplatform\nstore\njobs\n");
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME platform DEPS jetperf::common jetperf::store)\n"
        "jetperf_area(NAME store DEPS jetperf::common)\n"
        "jetperf_area(NAME jobs DEPS jetperf::store jetperf::platform)\n");
  write("include/jetperf/common/errors.hpp", "#pragma once\n");
  write("include/jetperf/store/snapshot_store.hpp", "#pragma once\n#include <jetperf/common/errors.hpp>\n");
  write("include/jetperf/platform/board.hpp", "#pragma once\n#include <jetperf/common/errors.hpp>\n");
  write("src/platform/board.cpp", "#include <jetperf/platform/board.hpp>\n#include <jetperf/store/snapshot_store.hpp>\n");
  write("src/jobs/job_service.cpp", "#include <jetperf/platform/board.hpp>\n#include <jetperf/store/snapshot_store.hpp>\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 2u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::upward_link);
  EXPECT_EQ(v[0].file, "src/CMakeLists.txt");
  EXPECT_EQ(v[0].line, 2);
  EXPECT_EQ(v[0].message,
            "src/CMakeLists.txt:2: platform links store, but store (line 3) is above platform (line 2) in "
            "tests/unit/tree/layers.txt; dependencies point downwards only (DESIGN.md section 2)");
  EXPECT_EQ(v[1].kind, violation_kind::upward_include);
  EXPECT_EQ(v[1].message,
            "src/platform/board.cpp:2: platform includes <jetperf/store/snapshot_store.hpp> of library store, but "
            "store (line 3) is above platform (line 2) in tests/unit/tree/layers.txt; move the code down or the "
            "header up");
}

TEST_F(small_tree, an_include_upwards_or_sideways_is_reported_once) {
  layers("common\nstore platform\njobs\n");
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME store DEPS jetperf::common)\n"
        "jetperf_area(NAME platform DEPS jetperf::common)\n"
        "jetperf_area(NAME jobs DEPS jetperf::store jetperf::platform)\n");
  write("include/jetperf/common/errors.hpp", "#pragma once\n");
  write("include/jetperf/jobs/job_state.hpp", "#pragma once\n");
  write("include/jetperf/store/job_store.hpp",
        "#pragma once\n#include <jetperf/common/errors.hpp>\n#include <jetperf/jobs/job_state.hpp>\n");
  write("include/jetperf/platform/board.hpp", "#pragma once\n#include <jetperf/common/errors.hpp>\n");
  write("src/platform/board.cpp", "#include <jetperf/platform/board.hpp>\n#include \"jetperf/store/job_store.hpp\"\n");
  write("src/jobs/job_service.cpp", "#include <jetperf/platform/board.hpp>\n#include <jetperf/store/job_store.hpp>\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 2u) << messages(v);  // no undeclared_include beside them
  EXPECT_EQ(v[0].kind, violation_kind::upward_include);
  EXPECT_EQ(v[0].file, "include/jetperf/store/job_store.hpp");
  EXPECT_EQ(v[0].line, 3);
  EXPECT_EQ(v[0].header, "jetperf/jobs/job_state.hpp");
  EXPECT_TRUE(contains(v[0].message, "store includes <jetperf/jobs/job_state.hpp> of library jobs, but jobs (line 3) "
                                     "is above store (line 2)"))
      << v[0].message;
  EXPECT_EQ(v[1].kind, violation_kind::upward_include);
  EXPECT_TRUE(contains(v[1].message, "src/platform/board.cpp:2: platform includes <jetperf/store/job_store.hpp> of "
                                     "library store, but store (line 2) is a peer of platform (line 2)"))
      << v[1].message;
}

TEST_F(small_tree, the_layer_order_and_the_declared_libraries_agree) {
  layers("common\nstore\nstorage\ncommon\n");
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME store DEPS jetperf::common)\n"
        "jetperf_area(NAME jobs DEPS jetperf::store)\n");
  write("src/store/db.cpp", "#include <jetperf/common/errors.hpp>\n");
  write("src/jobs/runner.cpp", "#include <jetperf/store/db.hpp>\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 3u) << messages(v);
  for (const auto& x : v) EXPECT_EQ(x.kind, violation_kind::unlisted_library) << x.message;
  EXPECT_EQ(v[0].message,
            "tests/unit/tree/layers.txt: library jobs is declared in CMake but has no layer here; add it on the "
            "line of the layer it belongs to");
  EXPECT_EQ(v[1].message, "tests/unit/tree/layers.txt:3: storage is no declared library; take it off");
  EXPECT_EQ(v[2].message, "tests/unit/tree/layers.txt:4: common is listed twice");
}

TEST_F(small_tree, a_declared_link_nothing_uses_is_reported) {
  layers("common\nplatform store\ntelemetry\ncore\n");
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME platform DEPS jetperf::common)\n"
        "jetperf_area(NAME store DEPS jetperf::common SQLite::SQLite3)\n"
        "jetperf_area(NAME telemetry DEPS jetperf::platform jetperf::store)\n"
        "# an aggregate with no files of its own: its links are what it is for\n"
        "add_library(jetperf_core INTERFACE)\n"
        "target_link_libraries(jetperf_core INTERFACE jetperf::telemetry jetperf::store)\n");
  write("include/jetperf/common/errors.hpp", "#pragma once\n");
  write("include/jetperf/platform/sysfs_root.hpp", "#pragma once\n#include <jetperf/common/errors.hpp>\n");
  write("src/store/db.cpp", "#include <jetperf/common/errors.hpp>\n");
  // A store type named in a comment or a string is no use: only an include is.
  write("src/telemetry/sampler.cpp",
        "#include <jetperf/platform/sysfs_root.hpp>\n// not store::job_store\nconst char* s = \"jetperf/store/\";\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::unused_link);
  EXPECT_EQ(v[0].file, "src/CMakeLists.txt");
  EXPECT_EQ(v[0].line, 4);
  EXPECT_EQ(v[0].message,
            "src/CMakeLists.txt:4: telemetry links store, but no file of telemetry includes a header of store "
            "(<jetperf/store/...>); take the link off, the libraries that use store link it themselves");
}

TEST_F(small_tree, raw_file_io_on_board_paths_outside_platform_is_reported) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME platform DEPS jetperf::common)\n"
        "jetperf_area(NAME telemetry DEPS jetperf::platform)\n"
        "jetperf_area(NAME kinds DEPS jetperf::telemetry)\n");
  write("src/kinds/multi_dnn/memory_use.cpp",
        "#include <fstream>\n"
        "#include <jetperf/platform/sysfs_paths.hpp>\n"
        "// std::ifstream in(\"/proc/meminfo\"); in a comment opens nothing\n"
        "double ram(const std::string& results_file) {\n"
        "  std::ifstream in(\"/proc/meminfo\");\n"
        "  std::ifstream table{platform::paths::meminfo};\n"
        "  FILE* f = fopen(\"/dev/nvhost-ctrl-gpu\", \"r\");\n"
        "  std::ifstream mine(results_file), other(\"notes/proc/x\");\n"
        "  const bool gpu = fs::exists(\n"
        "      std::string(\"/sys/class/devfreq\") + \"/gpu\");\n"
        "  return 0;\n"
        "}\n");
  // Telemetry's other readers go through platform too; its sysfs readers open host paths.
  write("src/telemetry/clock_sensor.cpp", "auto n = std::ifstream(root + paths::cpu_dir).rdbuf();\n");
  write("src/telemetry/sysfs_file.cpp", "fd_ = ::open(platform::paths::cpu_dir, O_RDONLY);\n");
  write("src/platform/meminfo.cpp", "std::ifstream in(paths::meminfo);\nint fd = ::open(\"/dev/null\", O_RDWR);\n");
  const auto v = check(violation_kind::raw_board_io);
  std::vector<std::string> got;
  for (const auto& x : v) got.push_back(x.file + ":" + std::to_string(x.line));
  EXPECT_EQ(got, (std::vector<std::string>{"src/kinds/multi_dnn/memory_use.cpp:5", "src/kinds/multi_dnn/memory_use.cpp:6",
                                           "src/kinds/multi_dnn/memory_use.cpp:7", "src/kinds/multi_dnn/memory_use.cpp:9",
                                           "src/telemetry/clock_sensor.cpp:1"}))
      << messages(v);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0].message,
            "src/kinds/multi_dnn/memory_use.cpp:5: std::ifstream opens \"/proc/meminfo\" outside platform; read it "
            "through a platform function over sysfs_root (a simulated board or a test's fixture tree then stands in "
            "for the board)");
  EXPECT_TRUE(contains(v[1].message, "std::ifstream opens platform::paths::meminfo outside platform")) << v[1].message;
  EXPECT_TRUE(contains(v[2].message, "fopen opens \"/dev/nvhost-ctrl-gpu\"")) << v[2].message;
  EXPECT_TRUE(contains(v[3].message, "fs::exists opens \"/sys/class/devfreq\"")) << v[3].message;
  EXPECT_TRUE(contains(v[4].message, "std::ifstream opens paths::cpu_dir")) << v[4].message;
}

}  // namespace
}  // namespace jetperf::test::tree
