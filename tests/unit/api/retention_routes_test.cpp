// POST/DELETE /v1/jobs/{id}/pin, the job's `retention`, a downsampled job's samples page saying
// so, and the store's footprint in /v1/health and /metrics.
#include <jetperf/store/retention_store.hpp>
#include <jetperf/store/sample_store.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

class retention_routes_test : public api_fixture {
 protected:
  api::router& make_retention_router(bool with_storage = true) {
    auto s = base_services();
    s.retention = &retention_;
    s.samples = &samples_;
    if (with_storage)
      s.storage = [] {
        api::storage_status st;
        st.database_bytes = 123456789;
        st.disk_free_bytes = 987654321;
        st.full_rate_days = 2.5;
        st.retention_full_days = 7;
        st.retention_days = 90;
        return st;
      };
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }

  store::retention_store retention_{db_};
  store::sample_store samples_{db_};
};

TEST_F(retention_routes_test, pin_and_unpin_need_the_token_and_show_on_the_job) {
  make_retention_router();
  const auto id = finished_job();
  auto no_token = request("POST", "/v1/jobs/" + std::to_string(id) + "/pin", "", /*with_token=*/false);
  EXPECT_EQ(router().handle(no_token).status, 401);
  EXPECT_FALSE(retention_.find(id));
  EXPECT_FALSE(json_of(call("GET", "/v1/jobs/" + std::to_string(id))).contains("retention"));

  auto res = call("POST", "/v1/jobs/" + std::to_string(id) + "/pin");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res), (nlohmann::json{{"id", id}, {"pinned", true}, {"samples", "full"}}));
  EXPECT_TRUE(retention_.find(id)->pinned);
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/" + std::to_string(id)))["retention"],
            (nlohmann::json{{"pinned", true}, {"samples", "full"}}));

  res = call("DELETE", "/v1/jobs/" + std::to_string(id) + "/pin");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["pinned"], false);
  EXPECT_FALSE(retention_.find(id)->pinned);

  const auto missing = json_of(call("POST", "/v1/jobs/999/pin"));
  EXPECT_EQ(missing["error"]["code"], "not_found");
  EXPECT_EQ(call("POST", "/v1/jobs/999/pin").status, 404);
  EXPECT_FALSE(retention_.find(999));
}

TEST_F(retention_routes_test, a_downsampled_jobs_samples_page_says_so) {
  make_retention_router();
  const auto id = finished_job();
  const auto power = samples_.channel_id("power.total", "W", "sim");
  std::vector<store::sample_row> rows;
  for (std::int64_t ms = 0; ms < 2000; ++ms) rows.push_back({power, ms * 1'000'000, 5.0 + static_cast<double>(ms / 1000)});
  samples_.insert(id, rows);
  EXPECT_FALSE(json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/samples")).contains("retention"));
  samples_.downsample_job(id);
  retention_.set_samples(id, "downsampled", 1);
  const auto j = json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/samples"));
  EXPECT_EQ(j["retention"], "downsampled");
  ASSERT_EQ(j["samples"].size(), 2u);
  EXPECT_EQ(j["samples"][1], (nlohmann::json{{"channel", "power.total"}, {"t_ns", 1'000'000'000}, {"value", 6.0}}));
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/" + std::to_string(id)))["retention"]["samples"], "downsampled");
}

TEST_F(retention_routes_test, health_and_metrics_carry_the_stores_footprint) {
  make_retention_router();
  const auto h = json_of(call("GET", "/v1/health"));
  EXPECT_EQ(h["storage"], (nlohmann::json{{"database_bytes", 123456789},
                                          {"disk_free_bytes", 987654321},
                                          {"full_rate_days", 2.5},
                                          {"retention_full_days", 7.0},
                                          {"retention_days", 90.0}}));
  const auto m = call("GET", "/metrics").body;
  EXPECT_NE(m.find("\njetperf_database_bytes 123456789\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\njetperf_disk_free_bytes 987654321\n"), std::string::npos);
  EXPECT_NE(m.find("\njetperf_full_rate_age_seconds 216000.0\n"), std::string::npos) << m;

  make_retention_router(/*with_storage=*/false);
  EXPECT_FALSE(json_of(call("GET", "/v1/health")).contains("storage"));
  EXPECT_EQ(call("GET", "/metrics").body.find("jetperf_database_bytes"), std::string::npos);
}

}  // namespace
}  // namespace jetperf::test
