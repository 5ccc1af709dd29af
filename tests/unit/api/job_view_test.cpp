// The API's view of a job: its record plus progress, ETA and wall-clock times as text.
#include <jetperf/api/job_view.hpp>

#include "api_fixture.hpp"

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
  // Queued: the ETA is the whole estimate.
  EXPECT_DOUBLE_EQ(j["progress"]["eta_s"].get<double>(), 0.02);
}

}  // namespace
}  // namespace jetperf::test
