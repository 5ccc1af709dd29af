// `jetperf compare A B` as text: a line per pair and metric, the unpaired and the regressions.
#include <algorithm>

#include <gtest/gtest.h>

#include "job_comparison_view.hpp"

namespace jetperf::client {
namespace {

TEST(job_comparison_view, a_line_per_metric_with_its_interval_verdict_and_the_tally) {
  const auto c = nlohmann::json::parse(R"({
    "a": {"job_id": 12, "kind": "gemm"}, "b": {"job_id": 15, "kind": "gemm"}, "threshold": 0.05,
    "pairs": [{"params": {"dtype": "float", "m": 64, "n": 64, "k": 64}, "a_points": 1, "b_points": 1,
               "metrics": [{"metric": "time_mean_s", "unit": "s", "a": {"mean": 0.001, "sd": 0.0001, "n": 100},
                            "b": {"mean": 0.0015, "sd": 0.0001, "n": 100}, "test": "window", "ratio": 1.5,
                            "ratio_ci95": [1.45, 1.55], "dof": 190, "verdict": "slower", "regressed": true},
                           {"metric": "gflops", "unit": "GFLOP/s", "a": {"mean": 0.5, "sd": 0, "n": 1},
                            "b": {"mean": 0.33, "sd": 0, "n": 1}, "test": "none", "ratio": 0.66,
                            "ratio_ci95": null, "dof": null, "verdict": "unknown", "regressed": false}]}],
    "only_in_a": 2, "only_in_b": 0, "regressions": 1})");
  const auto text = format_job_comparison(c);
  EXPECT_NE(text.find("job 12"), std::string::npos) << text;
  EXPECT_NE(text.find("job 15"), std::string::npos) << text;
  EXPECT_NE(text.find("1.45 .. 1.55"), std::string::npos) << text;
  EXPECT_NE(text.find("slower (regressed)"), std::string::npos) << text;
  EXPECT_NE(text.find("unknown, no spread to test"), std::string::npos) << text;
  EXPECT_NE(text.find("0.001 s"), std::string::npos) << text;
  EXPECT_NE(text.find("unpaired: 2 point(s) only in job 12, 0 only in job 15"), std::string::npos) << text;
  EXPECT_NE(text.find("1 metric(s) slower beyond the noise and the threshold (5%)"), std::string::npos) << text;

  const auto csv = format_job_comparison(c, "csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "point,metric,unit,a_mean,b_mean,ratio,ratio_lo,ratio_hi,test,verdict,regressed");
  EXPECT_NE(csv.find(",time_mean_s,s,0.001,0.0015,1.5,1.45,1.55,window,slower,true"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",gflops,GFLOP/s,0.5,0.33,0.66,,,none,unknown,false"), std::string::npos) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
}

TEST(job_comparison_view, nothing_paired_says_so) {
  const auto text = format_job_comparison(nlohmann::json::parse(
      R"({"a": {"job_id": 1}, "b": {"job_id": 2}, "threshold": 0.05, "pairs": [], "only_in_a": 1, "only_in_b": 1,
          "regressions": 0})"));
  EXPECT_NE(text.find("no points of the two jobs ran with the same parameters"), std::string::npos) << text;
  EXPECT_NE(text.find("no regression"), std::string::npos) << text;
}

}  // namespace
}  // namespace jetperf::client
