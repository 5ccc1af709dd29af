// `jetperf compare A B` against the real jetperfd: the same CPU GEMM run alone and then beside
// busy processes on every core reads slower (exit 1), a job against itself reads the same
// (exit 0), and two kinds, or --by beside B, are refused.
#include <support/cpu_hogs.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

class compare_jobs_sim : public sim_orin_maxn_suite {
 protected:
  // One CPU GEMM point at the top clock whose windows are kept however contended they are
  // (contention_threshold 1, no retries): the hogs' cost must show in its time.
  static std::int64_t run_gemm() {
    const auto r = cli({"submit", "gemm", "--device", "cpu", "--dtype", "float", "--sizes", "192", "--tensor", "off",
                        "--cpu-freq", "max", "--threads", "1", "--warmup-s", "0.05", "--min-time-s", "0.4",
                        "--max-time-s", "0.4", "--boundary-s", "0", "--cooldown-s", "0", "--contention-threshold", "1",
                        "--max-retries", "0"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto id = submitted_id(r.out);
    http_client http(daemon_->port());
    EXPECT_EQ(wait_state(http, id, {"succeeded", "failed", "cancelled"}, std::chrono::seconds(60)), "succeeded");
    return id;
  }
};

TEST_F(compare_jobs_sim, a_job_beside_cpu_hogs_is_slower_than_alone_and_a_job_is_the_same_as_itself) {
  const auto alone = run_gemm();
  std::int64_t loaded = 0;
  {
    cpu_hogs hogs(0);
    loaded = run_gemm();
  }
  auto r = cli({"compare", std::to_string(alone), std::to_string(loaded)});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("slower (regressed)"), std::string::npos) << r.out;

  r = cli({"--json", "compare", std::to_string(alone), std::to_string(loaded)});
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out << r.err;
  ASSERT_EQ(j["pairs"].size(), 1u) << j.dump(2);
  const auto& pair = j["pairs"][0];
  EXPECT_EQ(pair["params"]["m"], 192);
  nlohmann::json time;
  for (const auto& m : pair["metrics"])
    if (m["metric"] == "time_mean_s") time = m;
  ASSERT_TRUE(time.is_object()) << pair.dump(2);
  EXPECT_EQ(time["test"], "window");
  EXPECT_EQ(time["verdict"], "slower");
  EXPECT_GT(time["ratio"].get<double>(), 1.05);
  EXPECT_GT(time["ratio_ci95"][0].get<double>(), 1.0);
  EXPECT_GE(j["regressions"].get<int>(), 1);

  // A job against itself: every ratio 1, nothing regressed.
  r = cli({"compare", std::to_string(alone), std::to_string(alone)});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("no regression"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("slower"), std::string::npos) << r.out;
}

TEST_F(compare_jobs_sim, two_kinds_and_by_beside_a_second_job_are_refused) {
  auto r = cli({"submit", "idle", "--duration", "0.2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto idle = submitted_id(r.out);
  const auto gemm = run_gemm();
  http_client http(daemon_->port());
  wait_state(http, idle, {"succeeded", "failed", "cancelled"}, std::chrono::seconds(30));
  r = cli({"compare", std::to_string(gemm), std::to_string(idle)});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("only jobs of one kind compare"), std::string::npos) << r.err;

  const auto res = http.request("GET", "/v1/compare?a=" + std::to_string(gemm) + "&b=" + std::to_string(idle));
  EXPECT_EQ(res.status, 400);
  const auto body = nlohmann::json::parse(res.body, nullptr, false);
  EXPECT_EQ(body["error"]["field"], "b") << res.body;
  EXPECT_EQ(body["error"]["code"], "kind_mismatch") << res.body;
  EXPECT_EQ(http.request("GET", "/v1/compare?a=" + std::to_string(gemm)).status, 400);
  EXPECT_EQ(http.request("GET", "/v1/compare?a=" + std::to_string(gemm) + "&b=" + std::to_string(gemm) + "&threshold=nan").status,
            400);

  r = cli({"compare", std::to_string(gemm), std::to_string(gemm), "--by", "m"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

}  // namespace
}  // namespace jetperf::test
