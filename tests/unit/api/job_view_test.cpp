// The API's view of a job: its record plus progress, ETA and wall-clock times as text.
#include <jetperf/api/job_view.hpp>

#include "api_fixture.hpp"

#include <jetperf/common/clock.hpp>

namespace jetperf::test {
namespace {

class job_view_test : public api_fixture {};

TEST_F(job_view_test, has_progress_and_times) {
  const auto id = submit_idle({{"repeats", 2}, {"duration_s", 0.01}}, {"a", "b"});
  const auto j = api::job_json(service_->get(id));
  EXPECT_EQ(j["state"], "queued");
  EXPECT_EQ(j["tags"], nlohmann::json({"a", "b"}));
  EXPECT_EQ(j["progress"]["total"], 2);
  EXPECT_EQ(j["progress"]["done"], 0);
  EXPECT_TRUE(j["started_at"].is_null());
  EXPECT_TRUE(j["created_at"].get<std::string>().back() == 'Z');
  EXPECT_DOUBLE_EQ(j["estimate_s"].get<double>(), 0.02);
  // Queued: the ETA is the whole estimate, from the kind's own model (nothing learned yet).
  EXPECT_DOUBLE_EQ(j["progress"]["eta_s"].get<double>(), 0.02);
  EXPECT_EQ(j["progress"]["eta_basis"], nlohmann::json({{"source", "static"}}));
}

TEST_F(job_view_test, the_eta_says_what_it_is_made_from_and_a_job_without_one_says_nothing) {
  store::job_record job;
  job.id = 4;
  job.kind = "gemm";
  job.state = jobs::job_state::queued;
  job.points_total = 10;
  job.estimate_s = 100;
  job.estimate_basis = {"cost_model", 12};
  EXPECT_EQ(api::job_json(job)["progress"]["eta_basis"], nlohmann::json({{"source", "cost_model"}, {"jobs", 12}}));
  // Running, before a point ended: still the submission's estimate and basis.
  job.state = jobs::job_state::running;
  job.started_ns = wall_ns();
  EXPECT_EQ(api::job_json(job)["progress"]["eta_basis"], nlohmann::json({{"source", "cost_model"}, {"jobs", 12}}));
  // Its points' pace since.
  job.points_done = 3;
  job.estimate_now_s = 250;
  job.estimate_now_basis = {"pace", 3};
  auto view = api::job_json(job);
  EXPECT_EQ(view["progress"]["eta_basis"], nlohmann::json({{"source", "pace"}, {"points", 3}}));
  EXPECT_NEAR(view["progress"]["eta_s"].get<double>(), 250, 1);
  // A finished job has no ETA and no basis: its view stays as it was before bases were kept.
  job.state = jobs::job_state::succeeded;
  view = api::job_json(job);
  EXPECT_TRUE(view["progress"]["eta_s"].is_null());
  EXPECT_FALSE(view["progress"].contains("eta_basis")) << view["progress"].dump();
  // A job stored before bases were kept: its ETA without one.
  job.state = jobs::job_state::queued;
  job.estimate_basis = {};
  view = api::job_json(job);
  EXPECT_TRUE(view["progress"]["eta_s"].is_number());
  EXPECT_FALSE(view["progress"].contains("eta_basis")) << view["progress"].dump();
}

}  // namespace
}  // namespace jetperf::test
