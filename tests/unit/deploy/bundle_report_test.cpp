// The GPU bundle's report (deploy/gpu-bundle/report): what run.sh leaves on disk, read back and
// written as report.json and report.md.
#include <gtest/gtest.h>

#include <bundle_report.hpp>

#include <support/temp_dir.hpp>

using namespace jetperf;
using test::temp_dir;
using test::write_file;

namespace {

// A GPU-less run as run.sh writes it: one skipped step, one that ran with rows and a columns file.
void write_run(const temp_dir& d) {
  write_file(d.file("environment.txt"), "gpu: none found (nvidia-smi: not found)\ncuDNN: libcudnn.so.9 in /x/lib\n");
  write_file(d.file("steps/01-gpu_tests/status"), "skipped: no GPU\n");
  write_file(d.file("steps/01-gpu_tests/seconds"), "0\n");
  write_file(d.file("steps/01-gpu_tests/commands"), "tests/device_tests --gtest_brief=1\n");
  write_file(d.file("steps/02-gemm/status"), "ok\n");
  write_file(d.file("steps/02-gemm/seconds"), "12.5\n");
  write_file(d.file("steps/02-gemm/commands"), "bin/jetperf submit gemm --dtype half\n\nbin/jetperf results 1\n");
  write_file(d.file("steps/02-gemm/figures/cublas.json"),
             R"({"job": 1, "rows": [{"dtype": "half", "tensor": true, "gflops": 123456.789, "note": "a|b"},)"
             R"( {"dtype": "float", "tensor": false, "gflops": 2.5}]})");
  write_file(d.file("steps/02-gemm/figures/cublas.columns"), "dtype, gflops\n");
  write_file(d.file("steps/02-gemm/figures/torch.json"), R"({"torch": "2.4", "nested": {"x": 1}})");
}

}  // namespace

TEST(bundle_report, reads_the_environment_the_steps_their_commands_and_figures) {
  temp_dir d;
  write_run(d);
  const auto r = bundle::read_run(d.path());
  ASSERT_EQ(r.environment.size(), 2u);
  EXPECT_EQ(r.environment[1].first, "cuDNN");
  EXPECT_EQ(r.environment[1].second, "libcudnn.so.9 in /x/lib");
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].name, "01-gpu_tests");
  EXPECT_EQ(r.steps[0].status, "skipped: no GPU");
  EXPECT_EQ(r.steps[1].seconds, 12.5);
  ASSERT_EQ(r.steps[1].commands.size(), 2u) << "blank lines are not commands";
  EXPECT_EQ(r.steps[1].commands[1], "bin/jetperf results 1");
  ASSERT_EQ(r.steps[1].figures.size(), 2u);
  EXPECT_EQ(r.steps[1].figures[0].name, "cublas");
  EXPECT_EQ(r.steps[1].figures[0].columns, (std::vector<std::string>{"dtype", "gflops"}));
  EXPECT_EQ(r.steps[1].figures[0].value["rows"][0]["gflops"], 123456.789);
  EXPECT_TRUE(bundle::every_step_ran(r));
}

TEST(bundle_report, json_keeps_every_figure_and_digit) {
  temp_dir d;
  write_run(d);
  const auto j = bundle::to_json(bundle::read_run(d.path()));
  EXPECT_EQ(j["environment"]["gpu"], "none found (nvidia-smi: not found)");
  EXPECT_EQ(j["every_step_ran"], true);
  EXPECT_EQ(j["steps"][0]["status"], "skipped: no GPU");
  EXPECT_EQ(j["steps"][1]["figures"]["cublas"]["rows"][0]["gflops"], 123456.789);
  EXPECT_EQ(j["steps"][1]["figures"]["torch"]["nested"]["x"], 1);
  EXPECT_EQ(j["steps"][1]["commands"][0], "bin/jetperf submit gemm --dtype half");
}

TEST(bundle_report, markdown_shows_each_step_its_commands_and_the_chosen_columns) {
  temp_dir d;
  write_run(d);
  const std::string md = bundle::to_markdown(bundle::read_run(d.path()));
  EXPECT_NE(md.find("Every step ran or was skipped with its reason: 2 steps: 1 skipped, 1 ok.\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| gpu | none found (nvidia-smi: not found) |"), std::string::npos) << md;
  EXPECT_NE(md.find("## 01-gpu_tests: skipped: no GPU (0.0 s)"), std::string::npos) << md;
  EXPECT_NE(md.find("```\nbin/jetperf submit gemm --dtype half\nbin/jetperf results 1\n```"), std::string::npos) << md;
  EXPECT_NE(md.find("- job: 1\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| dtype | gflops |\n| --- | --- |\n| half | 1.235e+05 |\n| float | 2.5 |\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("a|b"), std::string::npos) << "the note column was not chosen";
  EXPECT_NE(md.find("- nested.x: 1\n"), std::string::npos) << md;
}

TEST(bundle_report, a_step_without_a_status_or_not_run_means_the_run_is_incomplete) {
  temp_dir d;
  write_run(d);
  write_file(d.file("steps/03-layers/commands"), "bin/jetperf submit layers\n");
  EXPECT_FALSE(bundle::every_step_ran(bundle::read_run(d.path())));
  write_file(d.file("steps/03-layers/status"), "not run: bin/jetperf is missing\n");
  EXPECT_FALSE(bundle::every_step_ran(bundle::read_run(d.path())));
  EXPECT_NE(bundle::to_markdown(bundle::read_run(d.path())).find("Some steps did not run: 3 steps: 1 skipped, 1 ok, 1 not run.\n"),
            std::string::npos);
  write_file(d.file("steps/03-layers/status"), "timed out (60 s)\n");
  EXPECT_TRUE(bundle::every_step_ran(bundle::read_run(d.path())));
}

TEST(bundle_report, a_googletest_report_becomes_one_row_per_test_with_its_result) {
  temp_dir d;
  write_run(d);
  write_file(d.file("steps/01-gpu_tests/figures/gtest.json"),
             R"({"tests": 3, "failures": 1, "time": "2s", "testsuites": [{"name": "gemm_cublas", "testsuite": [)"
             R"({"name": "tflops", "result": "COMPLETED", "time": "1.5s"},)"
             R"({"name": "bf16", "result": "SKIPPED", "time": "0s"},)"
             R"({"name": "tensor", "result": "COMPLETED", "time": "0.5s", "failures": [{"failure": "x.cpp:3\nExpected: 1"}]}]}]})");
  const std::string md = bundle::to_markdown(bundle::read_run(d.path()));
  EXPECT_NE(md.find("- tests: 3\n- failures: 1\n- time: 2s\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| test | result | time | failure |"), std::string::npos) << md;
  EXPECT_NE(md.find("| gemm_cublas.tflops | COMPLETED | 1.5s |  |"), std::string::npos) << md;
  EXPECT_NE(md.find("| gemm_cublas.bf16 | SKIPPED | 0s |  |"), std::string::npos) << md;
  EXPECT_NE(md.find("| gemm_cublas.tensor | FAILED | 0.5s | x.cpp:3 |"), std::string::npos) << md;
}

TEST(bundle_report, a_half_written_figure_is_reported_not_fatal_and_a_bad_seconds_file_names_itself) {
  temp_dir d;
  write_run(d);
  write_file(d.file("steps/02-gemm/figures/cut.json"), R"({"rows": [{"dtype": "ha)");
  const auto r = bundle::read_run(d.path());
  ASSERT_EQ(r.steps[1].figures.size(), 3u);
  EXPECT_NE(r.steps[1].figures[1].value["unparsable"].get<std::string>().find("cut.json"), std::string::npos);
  write_file(d.file("steps/02-gemm/seconds"), "soon\n");
  try {
    bundle::read_run(d.path());
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("02-gemm/seconds"), std::string::npos) << e.what();
  }
}
