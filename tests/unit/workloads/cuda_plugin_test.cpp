// The CUDA half is a plugin loaded on first use: nothing of CUDA is mapped before, the plugin and
// cuBLAS are after (in a CUDA build), and a plugin that cannot be loaded says why. Each case runs
// in a fresh child process (gtest's threadsafe death-test style re-executes the binary), since a
// load is process-wide and for good.
#include <jetperf/workloads/cuda_plugin.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <jetperf/config.hpp>
#include <jetperf/workloads/backend_versions.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::workloads {
namespace {

std::string self_maps() {
  std::ifstream in("/proc/self/maps");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool mapped(const std::string& lib) { return self_maps().find(lib) != std::string::npos; }

// In the child: prints what went wrong and exits 1, or exits 0.
void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    std::exit(1);
  }
}

class cuda_plugin_test : public ::testing::Test {
 protected:
  // GTEST_FLAG_SET is googletest >= 1.11; the flag variable works from 1.10 (Ubuntu 20.04) on.
  void SetUp() override { ::testing::FLAGS_gtest_death_test_style = "threadsafe"; }
};

TEST_F(cuda_plugin_test, is_looked_for_first_where_the_environment_says_then_beside_the_executable) {
  ::setenv("JETPERF_CUDA_PLUGIN", "/opt/elsewhere/libjetperf_cuda.so", 1);
  const auto c = cuda_plugin_candidates();
  ::unsetenv("JETPERF_CUDA_PLUGIN");
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0], "/opt/elsewhere/libjetperf_cuda.so");
  EXPECT_NE(c[1].find("/../lib/jetperf/libjetperf_cuda.so"), std::string::npos) << c[1];
  EXPECT_EQ(cuda_plugin_candidates().size(), c.size() - 1);
}

TEST_F(cuda_plugin_test, nothing_of_cuda_is_mapped_until_cuda_work_asks_for_it) {
  EXPECT_EXIT(
      {
        check(!cuda_plugin_loaded(), "loaded before any use");
        check(!mapped("libcublas") && !mapped("libcudart") && !mapped("libjetperf_cuda"), "CUDA mapped at start");
        // Provenance asks for the versions before every job: that must not load it either.
        const auto before = loaded_backend_versions();
        check(!cuda_plugin_loaded() && !before.cuda_runtime, "versions loaded CUDA");
#if JETPERF_HAS_CUDA
        check(before.cuda_not_loaded.value_or("").rfind("not loaded", 0) == 0, "versions before a load");
#endif
        std::string why;
        const bool available = cuda_device_available();
        const auto* plugin = cuda_plugin(&why);
#if JETPERF_HAS_CUDA
        check(plugin != nullptr, "plugin not loaded: " + why);
        check(cuda_plugin_loaded(), "cuda_plugin_loaded() false after a load");
        check(mapped("libjetperf_cuda.so") && mapped("libcublas"), "plugin or cuBLAS not mapped after use");
        const auto info = plugin->query_device();
        check(available == (info.count > 0), "cuda_device_available() disagrees with the device count");
        check(info.cuda_runtime_version > 0, "no runtime version through the table");
        const auto after = loaded_backend_versions();
        check(after.cuda_runtime == info.cuda_runtime_version && !after.cuda_not_loaded, "versions after a load");
#else
        check(plugin == nullptr && !available, "a build without CUDA loaded something");
        check(why == "not supported by this build (no CUDA)", "why: " + why);
        check(!mapped("libcublas"), "cuBLAS mapped in a build without CUDA");
#endif
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(cuda_plugin_test, a_file_that_is_no_plugin_is_refused_with_the_loader_s_reason) {
  test::temp_dir dir;
  const auto bogus = dir.file("libjetperf_cuda.so");
  std::ofstream(bogus) << "not an ELF file\n";
  EXPECT_EXIT(
      {
        ::setenv("JETPERF_CUDA_PLUGIN", bogus.c_str(), 1);
        std::string why;
        check(cuda_plugin(&why) == nullptr, "a text file loaded as the plugin");
        check(!cuda_plugin_loaded(), "cuda_plugin_loaded() after a failed load");
#if JETPERF_HAS_CUDA
        check(why.find("CUDA plugin " + bogus + " does not load: ") == 0, "why: " + why);
        std::string gemm_why;
        check(make_cuda_gemm_backend(&gemm_why) == nullptr, "a backend without a plugin");
        check(gemm_why == "skipped: " + why, "gemm why: " + gemm_why);
#else
        check(why == "not supported by this build (no CUDA)", "why: " + why);
#endif
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace jetperf::workloads
