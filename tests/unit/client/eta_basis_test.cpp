// What `jetperf watch` and `jetperf show` say an ETA was made from (progress.eta_basis).
#include <gtest/gtest.h>

#include "job_view.hpp"
#include "output.hpp"

using namespace jetperf::client;
using nlohmann::json;

TEST(eta_basis, reads_as_the_pace_the_cost_model_or_the_static_model) {
  EXPECT_EQ(format_eta_basis({{"source", "pace"}, {"points", 3}}), "from the pace of 3 finished points");
  EXPECT_EQ(format_eta_basis({{"source", "pace"}, {"points", 1}}), "from the pace of 1 finished point");
  EXPECT_EQ(format_eta_basis({{"source", "cost_model"}, {"jobs", 12}}),
            "from the cost model (learned from 12 jobs on this board)");
  EXPECT_EQ(format_eta_basis({{"source", "static"}}), "from the kind's static model");
  EXPECT_EQ(format_eta_basis(nullptr), "") << "an older daemon sends none";
  EXPECT_EQ(format_eta_basis({{"source", "oracle"}}), "from oracle") << "a newer daemon's, as it names it";
  EXPECT_EQ(format_eta_basis_brief({{"source", "pace"}, {"points", 3}}), "pace of 3 points");
  EXPECT_EQ(format_eta_basis_brief({{"source", "cost_model"}, {"jobs", 1}}), "cost model, 1 job");
  EXPECT_EQ(format_eta_basis_brief({{"source", "static"}}), "static model");
}

TEST(eta_basis, watch_prints_it_after_the_eta) {
  EXPECT_EQ(progress_line(3, 2, 5, 100, {{"source", "pace"}, {"points", 2}}),
            "job 3: 2/5 points, eta 1m40s from the pace of 2 finished points");
  EXPECT_EQ(progress_line(3, 0, 5, 4, nullptr), "job 3: 0/5 points, eta 4s");
  const auto bar = progress_bar(3, 2, 5, 100, 80, {{"source", "cost_model"}, {"jobs", 12}});
  EXPECT_EQ(bar.size(), 79u) << bar;
  EXPECT_NE(bar.find("  2/5  eta 1m40s (cost model, 12 jobs)"), std::string::npos) << bar;
}

TEST(eta_basis, show_prints_it_for_a_running_job) {
  const auto job = json::parse(R"({"id": 7, "kind": "gemm", "state": "running",
    "progress": {"done": 1, "total": 4, "eta_s": 30, "eta_basis": {"source": "pace", "points": 1}}})");
  const auto text = format_job_view(job, {});
  EXPECT_NE(text.find("progress:  1/4 points, eta 30s from the pace of 1 finished point\n"), std::string::npos) << text;
}
