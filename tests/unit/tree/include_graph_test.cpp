// The include-graph check over the real tree, and over small trees written here that each hold
// one of the violations the tree once had (store -> jobs, platform -> store, /sys in telemetry,
// the client compiling src/, jetperf_cuda <-> jetperf_workloads). The layer order's rules, unused
// links and raw board file I/O have their small trees in architecture_rules_test.cpp.
#include "include_graph.hpp"
#include "small_tree.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test::tree {
namespace {

TEST(include_graph, the_tree_keeps_its_layers) {
  const auto found = check_tree(source_dir());
  EXPECT_TRUE(found.empty()) << to_string(found);
}

TEST(include_graph, reads_the_declared_links_of_the_real_tree) {
  const auto g = read_library_graph(source_dir());
  for (const char* lib : {"common", "store", "platform", "tegrastats", "traces", "stats", "telemetry", "models",
                          "backend", "workloads", "cuda", "jobs", "measure", "kinds", "api", "client"})
    EXPECT_TRUE(g.libraries.count(lib)) << lib;
  // DEPS through a variable (workload_deps) and links declared in kernels/ and client/.
  EXPECT_TRUE(g.dependencies("workloads").count("backend"));
  // The CUDA half is a plugin the host loads at run time (jetperf/backend/cuda_plugin_abi.hpp):
  // workloads neither links nor includes it.
  EXPECT_FALSE(g.dependencies("workloads").count("cuda"));
  EXPECT_TRUE(g.dependencies("cuda").count("models"));
  EXPECT_FALSE(g.dependencies("cuda").count("workloads"));
  EXPECT_FALSE(g.dependencies("platform").count("store"));
  EXPECT_FALSE(g.dependencies("store").count("jobs"));
  // DESIGN.md: the store is used by jobs and the API, never by measure (nor telemetry, which
  // once declared a link to it that nothing used).
  EXPECT_FALSE(g.dependencies("measure").count("store"));
  EXPECT_FALSE(g.dependencies("telemetry").count("store"));
  // DESIGN.md's order: the kinds above the job runner, the runner above the measurement
  // protocols (it hands each point a measure::point_context), the API above the contract only
  // (kinds are registered by the daemon).
  EXPECT_TRUE(g.dependencies("jobs").count("measure"));
  EXPECT_FALSE(g.dependencies("measure").count("jobs"));
  EXPECT_TRUE(g.dependencies("kinds").count("jobs"));
  EXPECT_TRUE(g.dependencies("kinds").count("measure"));
  EXPECT_FALSE(g.dependencies("api").count("kinds"));
  EXPECT_FALSE(g.dependencies("measure").count("kinds"));
  EXPECT_EQ(g.dependencies("client"), (std::set<std::string>{"tegrastats", "traces", "common"}));
  // The statistics are pure maths: they link common alone, and measure uses them.
  EXPECT_EQ(g.dependencies("stats"), (std::set<std::string>{"common"}));
  EXPECT_TRUE(g.dependencies("measure").count("stats"));
  // The trace analysis is pure: the client links it, and it links nothing of the daemon.
  EXPECT_EQ(g.dependencies("traces"), (std::set<std::string>{"common"}));
}

// DESIGN.md: the store is used by jobs, telemetry and the API through narrow interfaces, never
// by the measurement protocols (a point's timeline spans are the runner's to store). measure
// links telemetry, which links the store, so the link graph alone would allow the include.
// Lines of the files under `dirs` (recursively) that contain `needle`, as "path: line".
std::vector<std::string> lines_naming(std::initializer_list<const char*> dirs, const std::string& needle,
                                      bool includes_only) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  for (const char* dir : dirs) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(source_dir()) / dir)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path());
      for (std::string line; std::getline(in, line);)
        if ((!includes_only || line.rfind("#include", 0) == 0) && line.find(needle) != std::string::npos)
          found.push_back(e.path().string() + ": " + line);
    }
  }
  return found;
}

TEST(include_graph, the_measurement_protocols_include_no_store_header) {
  const auto found = lines_naming({"src/measure", "include/jetperf/measure"}, "jetperf/store/", true);
  EXPECT_TRUE(found.empty()) << found.size() << " store includes, the first: " << (found.empty() ? "" : found[0]);
}

// Issue "A typed middle": a kind gets its finished points as rows (jobs/kind.hpp), never the
// store's records, so the store can change without touching a kind.
TEST(include_graph, the_kinds_name_no_store_type) {
  auto found = lines_naming({"src/kinds", "include/jetperf/kinds"}, "jetperf/store/", true);
  const auto named = lines_naming({"src/kinds", "include/jetperf/kinds"}, "store::", false);
  found.insert(found.end(), named.begin(), named.end());
  EXPECT_TRUE(found.empty()) << found.size() << " store names, the first: " << (found.empty() ? "" : found[0]);
}

// DESIGN.md section 2 and issue "A typed middle": JSON is made and read only in api/ and store/
// (and client/, daemon/), and by the readers of JSON file formats (models/network_json: user
// networks; traces/: Kineto traces; sim/profile_file.cpp: simulated board profiles, which the
// simulator's own programs read too, k_json_file_readers). Every other folder holds typed values (common/cell.hpp);
// this lists them all, src/ and include/jetperf/ both, so that none slips back. The middle
// (common, measure, jobs, kinds) does not even name the type: its values cross into JSON through
// store/cell_json.hpp and store/job_cells.hpp.
const std::initializer_list<const char*> k_json_free_dirs = {
    "src/common",     "include/jetperf/common",    "src/platform",  "include/jetperf/platform",
    "src/sim",        "include/jetperf/sim",       "src/workloads", "include/jetperf/workloads",
    "src/tegrastats", "include/jetperf/tegrastats", "src/telemetry", "include/jetperf/telemetry",
    "src/backend",    "include/jetperf/backend",   "src/measure",   "include/jetperf/measure",
    "src/jobs",       "include/jetperf/jobs",      "src/kinds",     "include/jetperf/kinds",
    "kernels",        "include/jetperf/cuda",
};

// The one reader of a JSON file format inside a JSON-free folder: it is its file's only job.
const std::initializer_list<const char*> k_json_file_readers = {"src/sim/profile_file.cpp"};

TEST(include_graph, the_json_free_folders_include_no_nlohmann_json) {
  auto found = lines_naming(k_json_free_dirs, "nlohmann/", true);
  found.erase(std::remove_if(found.begin(), found.end(),
                             [](const std::string& line) {
                               return std::any_of(k_json_file_readers.begin(), k_json_file_readers.end(),
                                                  [&line](const char* f) {
                                                    return line.find(std::string(f) + ": ") != std::string::npos;
                                                  });
                             }),
              found.end());
  EXPECT_TRUE(found.empty()) << found.size() << " nlohmann includes, the first: " << (found.empty() ? "" : found[0]);
}

TEST(include_graph, the_middle_names_no_json_type) {
  std::vector<std::string> found;
  for (const auto& line : lines_naming({"src/common", "include/jetperf/common", "src/measure", "include/jetperf/measure",
                                        "src/jobs", "include/jetperf/jobs", "src/kinds", "include/jetperf/kinds"},
                                       "nlohmann", false)) {
    const auto code = line.substr(line.find(": ") + 2);
    if (code.find("nlohmann") < code.find("//")) found.push_back(line);  // a comment may name it
  }
  EXPECT_TRUE(found.empty()) << found.size() << " lines naming nlohmann, the first: " << (found.empty() ? "" : found[0]);
}

// Outside the JSON folders, only the readers of JSON file formats include nlohmann json: the list
// is exact (a file that starts including it fails, and so does one that stops).
const std::set<std::string> k_json_format_readers = {
    "include/jetperf/models/network_json.hpp",
};

TEST(include_graph, outside_api_store_client_and_daemon_only_file_format_readers_include_json) {
  const auto root = std::filesystem::path(source_dir()).string() + "/";
  std::set<std::string> including;
  for (const auto& line : lines_naming({"src/models", "include/jetperf/models"}, "nlohmann/", true)) {
    auto path = line.substr(0, line.find(": "));
    if (path.rfind(root, 0) == 0) path = path.substr(root.size());
    including.insert(path);
  }
  for (const auto& path : including)
    EXPECT_TRUE(k_json_format_readers.count(path)) << path << " includes nlohmann json but reads no JSON file format";
  for (const auto& path : k_json_format_readers)
    EXPECT_TRUE(including.count(path)) << path << " no longer includes nlohmann json: take it off the list";
}

const char* const k_areas =
    "jetperf_area(NAME common DEPS nlohmann_json::nlohmann_json)\n"
    "jetperf_area(NAME store DEPS jetperf::common SQLite::SQLite3)\n"
    "jetperf_area(NAME platform DEPS jetperf::common ${CMAKE_DL_LIBS})\n"
    "jetperf_area(NAME jobs DEPS jetperf::store jetperf::platform)\n";

TEST_F(small_tree, a_clean_tree_passes) {
  cmake("src", k_areas);
  layers("common\nstore platform  # peers\njobs\n");
  write("include/jetperf/store/job_store.hpp", "#pragma once\n#include <jetperf/common/errors.hpp>\n");
  write("src/jobs/job_service.cpp", "#include <jetperf/store/job_store.hpp>\n#include <jetperf/common/errors.hpp>\n"
                                    "#include <jetperf/platform/sysfs_paths.hpp>\n");
  write("include/jetperf/platform/sysfs_paths.hpp", "#pragma once\n#include <jetperf/common/errors.hpp>\n");
  write("src/platform/sysfs_paths.cpp", "const char* p = \"/sys/class/devfreq\";\n"
                                        "std::ifstream in(\"/proc/meminfo\");\n");
  EXPECT_TRUE(check().empty()) << messages(check());
}

TEST_F(small_tree, store_including_a_jobs_header_is_reported) {
  cmake("src", k_areas);
  write("include/jetperf/jobs/job_state.hpp", "#pragma once\n");
  write("include/jetperf/store/job_store.hpp",
        "#pragma once\n// Jobs and their points.\n#include <string>\n\n#include <jetperf/jobs/job_state.hpp>\n");
  const auto v = check(violation_kind::undeclared_include);
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::undeclared_include);
  EXPECT_EQ(v[0].file, "include/jetperf/store/job_store.hpp");
  EXPECT_EQ(v[0].line, 5);
  EXPECT_EQ(v[0].header, "jetperf/jobs/job_state.hpp");
  EXPECT_TRUE(contains(v[0].message, "include/jetperf/store/job_store.hpp:5: store includes "
                                     "<jetperf/jobs/job_state.hpp> of library jobs, but store does not link jobs "
                                     "(store links: common)"))
      << v[0].message;
}

TEST_F(small_tree, platform_including_the_store_without_linking_it_is_reported) {
  cmake("src", k_areas);
  write("include/jetperf/store/snapshot_store.hpp", "#pragma once\n");
  write("src/platform/store_snapshot_journal.cpp", "#include <jetperf/store/snapshot_store.hpp>\n");
  const auto v = check(violation_kind::undeclared_include);
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::undeclared_include);
  EXPECT_TRUE(contains(v[0].message, "src/platform/store_snapshot_journal.cpp:1: platform includes "
                                     "<jetperf/store/snapshot_store.hpp> of library store, but platform does not "
                                     "link store"))
      << v[0].message;
}

TEST_F(small_tree, transitive_links_and_deps_through_variables_allow_an_include) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME models DEPS jetperf::common)\n"
        "jetperf_area(NAME backend DEPS jetperf::models)\n"
        "set(workload_deps jetperf::common ${CMAKE_DL_LIBS})\n"
        "if(JETPERF_HAS_OPENBLAS)\n  list(APPEND workload_deps jetperf::backend jetperf_openblas)\nendif()\n"
        "jetperf_area(NAME workloads\n  DEPS ${workload_deps}  # the backends\n)\n");
  write("src/workloads/cpu_gemm_backend.cpp",
        "#include <jetperf/backend/gemm_backend.hpp>\n#include <jetperf/models/network.hpp>\n");
  write("src/models/network.cpp", "#include <jetperf/backend/gemm_backend.hpp>\n");
  const auto v = check(violation_kind::undeclared_include);
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_TRUE(contains(v[0].message, "src/models/network.cpp:1: models includes <jetperf/backend/gemm_backend.hpp> "
                                     "of library backend, but models does not link backend"))
      << v[0].message;
}

TEST_F(small_tree, a_cycle_in_the_declared_links_is_reported) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME store DEPS jetperf::common jetperf::jobs)\n"
        "jetperf_area(NAME jobs DEPS jetperf::store)\n");
  const auto v = check(violation_kind::dependency_cycle);
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::dependency_cycle);
  EXPECT_EQ(v[0].message,
            "src/CMakeLists.txt:3: dependency cycle jobs -> store -> jobs (jobs links store at src/CMakeLists.txt:3; "
            "store links jobs at src/CMakeLists.txt:2)");
}

TEST_F(small_tree, cuda_and_workloads_linking_each_other_is_reported) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME models DEPS jetperf::common)\n"
        "jetperf_area(NAME workloads DEPS jetperf::models)\n");
  cmake("kernels",
        "if(NOT JETPERF_HAS_CUDA)\n  return()\nendif()\n"
        "add_library(jetperf_cuda STATIC ${cuda_srcs})\n"
        "add_library(jetperf::cuda ALIAS jetperf_cuda)\n"
        "target_link_libraries(jetperf_cuda PUBLIC CUDA::cudart jetperf::models)\n"
        "target_link_libraries(jetperf_workloads PUBLIC jetperf_cuda)\n"
        "# a static-library cycle CMake links twice\n"
        "target_link_libraries(jetperf_cuda INTERFACE jetperf_workloads)\n");
  write("src/workloads/cuda/cudnn_layer_backend.cpp", "#include <jetperf/workloads/layer_data.hpp>\n");
  const auto v = check(violation_kind::dependency_cycle);
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::dependency_cycle);
  EXPECT_TRUE(contains(v[0].message, "dependency cycle cuda -> workloads -> cuda (cuda links workloads at "
                                     "kernels/CMakeLists.txt:9; workloads links cuda at kernels/CMakeLists.txt:7)"))
      << v[0].message;
}

TEST_F(small_tree, cuda_sources_belong_to_jetperf_cuda) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME backend DEPS jetperf::common)\n"
        "jetperf_area(NAME workloads DEPS jetperf::backend)\n");
  cmake("kernels",
        "add_library(jetperf_cuda STATIC ${cuda_srcs})\n"
        "target_link_libraries(jetperf_cuda PUBLIC jetperf::backend)\n"
        "target_link_libraries(jetperf_workloads PUBLIC jetperf_cuda)\n");
  write("src/workloads/cuda/cudnn_layer_backend.cpp",
        "#include <jetperf/backend/layer_data.hpp>\n#include <jetperf/cuda/cuda_layers.hpp>\n"
        "#include <jetperf/workloads/layer_backends.hpp>\n");
  write("src/workloads/layer_backends.cpp", "#include <jetperf/cuda/cuda_layers.hpp>\n");
  const auto v = check(violation_kind::undeclared_include);
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_TRUE(contains(v[0].message, "src/workloads/cuda/cudnn_layer_backend.cpp:3: cuda includes "
                                     "<jetperf/workloads/layer_backends.hpp> of library workloads, but cuda does "
                                     "not link workloads"))
      << v[0].message;
}

TEST_F(small_tree, board_paths_outside_platform_are_reported) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME platform DEPS jetperf::common)\n"
        "jetperf_area(NAME sim DEPS jetperf::platform)\n"
        "jetperf_area(NAME telemetry DEPS jetperf::platform)\n");
  write("src/telemetry/clock_sensor.cpp",
        "#include <sys/prctl.h>\n"
        "// Reads /sys/class/devfreq/*/cur_freq.\n"
        "/* and \"/sys/kernel/debug\" in a comment */\n"
        "const char* const emc[] = {\"/sys/kernel/debug/bpmp/debug/clk/emc/rate\",\n"
        "                           \"/sys/kernel/debug/clk/override.emc/clk_rate\"};\n"
        "const std::string base = \"/sys/class/devfreq\";\n"
        "auto a = root + \"/device/of_node/name\", b = std::string(\"host/sys/devices/system\");\n"
        "int n = 1'000; char q = '\"'; auto r = R\"x(/proc/stat)x\";\n");
  write("src/platform/sysfs_paths.cpp", "const char* p = \"/sys/class/devfreq\";\n");
  write("src/sim/board_tree.cpp", "t.put(\"/sys/devices/pwm-fan/target_pwm\", \"0\\n\");\n");
  const auto v = check(violation_kind::sys_path_literal);
  std::vector<std::pair<int, std::string>> got;
  for (const auto& x : v) {
    EXPECT_EQ(x.kind, violation_kind::sys_path_literal) << x.message;
    EXPECT_EQ(x.file, "src/telemetry/clock_sensor.cpp");
    got.emplace_back(x.line, x.message);
  }
  ASSERT_EQ(got.size(), 5u) << messages(v);
  EXPECT_EQ(got[0].first, 4);
  EXPECT_TRUE(contains(got[0].second, "src/telemetry/clock_sensor.cpp:4: \"/sys/kernel/debug/bpmp/debug/clk/emc/rate\" "
                                      "spells a board path outside platform"))
      << got[0].second;
  EXPECT_EQ(got[1].first, 5);
  EXPECT_EQ(got[2].first, 6);
  EXPECT_EQ(got[3].first, 7);
  EXPECT_TRUE(contains(got[3].second, "host/sys/devices/system")) << got[3].second;
  EXPECT_EQ(got[4].first, 8);
  EXPECT_TRUE(contains(got[4].second, "\"/proc/stat\"")) << got[4].second;
}

TEST_F(small_tree, the_client_compiling_a_source_of_src_is_reported) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME telemetry DEPS jetperf::common)\n");
  cmake("client",
        "file(GLOB_RECURSE client_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)\n"
        "add_executable(jetperf ${client_srcs})\n"
        "# The one piece of the core the client carries.\n"
        "target_sources(jetperf PRIVATE ${PROJECT_SOURCE_DIR}/src/telemetry/tegrastats_parser.cpp)\n"
        "target_link_libraries(jetperf PRIVATE nlohmann_json::nlohmann_json jetperf_warnings)\n");
  write("client/cmd_tegrastats.cpp", "#include \"command.hpp\"\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::client_compiles_src);
  EXPECT_EQ(v[0].message,
            "client/CMakeLists.txt:4: the client compiles src/telemetry/tegrastats_parser.cpp into itself; it must "
            "link the library instead (jetperf::telemetry)");
}

TEST_F(small_tree, the_client_including_a_library_it_does_not_link_is_reported) {
  cmake("src",
        "jetperf_area(NAME common)\n"
        "jetperf_area(NAME tegrastats DEPS jetperf::common nlohmann_json::nlohmann_json)\n"
        "jetperf_area(NAME telemetry DEPS jetperf::tegrastats)\n");
  cmake("client",
        "file(GLOB_RECURSE client_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)\n"
        "add_executable(jetperf ${client_srcs})\n"
        "target_link_libraries(jetperf PRIVATE jetperf::tegrastats CLI11::CLI11)\n");
  write("client/cmd_tegrastats.cpp",
        "#include <jetperf/common/errors.hpp>\n#include <jetperf/tegrastats/tegrastats_parser.hpp>\n");
  write("client/cmd_top.cpp", "#include <jetperf/telemetry/sampler.hpp>\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::undeclared_include);
  EXPECT_TRUE(contains(v[0].message, "client/cmd_top.cpp:1: client includes <jetperf/telemetry/sampler.hpp> of "
                                     "library telemetry, but client does not link telemetry (client links: tegrastats)"))
      << v[0].message;
}

TEST_F(small_tree, a_folder_without_a_library_is_reported) {
  cmake("src", "jetperf_area(NAME common)\n");
  write("src/kinds/gemm_kind.cpp", "#include <jetperf/common/errors.hpp>\n");
  const auto v = check();
  ASSERT_EQ(v.size(), 1u) << messages(v);
  EXPECT_EQ(v[0].kind, violation_kind::unknown_library);
  EXPECT_TRUE(contains(v[0].message, "src/kinds/: no library is declared for this folder")) << v[0].message;
}

}  // namespace
}  // namespace jetperf::test::tree
