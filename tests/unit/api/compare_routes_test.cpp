#include <gtest/gtest.h>

#include <jetperf/jobs/job_state.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>

#include "api_fixture.hpp"

using namespace jetperf;
using nlohmann::json;

namespace {

class compare_routes : public test::api_fixture {
 protected:
  compare_routes() { registry_.add(kinds::make_gemm_kind()); }

  // A finished gemm job with tensor on and off at one size: on is twice as fast at the same power.
  std::int64_t gemm_job() {
    store::job_store raw(db_);
    const auto id = raw.insert("gemm", json::object(), {}, 2, 1.0);
    int index = 0;
    for (const char* tensor : {"on", "off"}) {
      store::point_record p;
      p.job_id = id;
      p.index = index++;
      p.status = "ok";
      p.params = {{"device", "cuda"}, {"dtype", "half"}, {"m", 1024}, {"n", 1024}, {"k", 1024}, {"tensor", tensor}};
      const double gflops = std::string(tensor) == "on" ? 2000.0 : 1000.0;
      p.metrics = {{"gflops", gflops}, {"power_w", 10.0}, {"gflops_per_w", gflops / 10.0}};
      raw.add_point(p);
    }
    raw.set_state(id, jobs::job_state::running);
    raw.set_state(id, jobs::job_state::succeeded);
    return id;
  }
};

}  // namespace

TEST_F(compare_routes, tensor_on_off_ratios_of_a_gemm_job) {
  const auto id = gemm_job();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/compare?by=tensor");
  ASSERT_EQ(res.status, 200) << res.body;
  auto body = json_of(res);
  EXPECT_EQ(body["job_id"], id);
  EXPECT_EQ(body["by"], "tensor");
  ASSERT_EQ(body["rows"].size(), 1u);
  EXPECT_DOUBLE_EQ(body["rows"][0]["gflops_ratio"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(body["rows"][0]["gflops_per_w_ratio"].get<double>(), 2.0);
}

TEST_F(compare_routes, bad_requests_name_the_field) {
  const auto gemm = gemm_job();
  auto missing = call("GET", "/v1/jobs/" + std::to_string(gemm) + "/compare");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(json_of(missing)["error"]["field"], "by");
  auto unknown_param = call("GET", "/v1/jobs/" + std::to_string(gemm) + "/compare?by=colour");
  EXPECT_EQ(unknown_param.status, 400);
  EXPECT_EQ(json_of(unknown_param)["error"]["field"], "by");
  const auto idle = submit_idle();
  auto idle_res = call("GET", "/v1/jobs/" + std::to_string(idle) + "/compare?by=tensor");
  EXPECT_EQ(idle_res.status, 400);
  EXPECT_EQ(json_of(idle_res)["error"]["field"], "by");
  EXPECT_EQ(call("GET", "/v1/jobs/999/compare?by=tensor").status, 404);
  EXPECT_EQ(call("POST", "/v1/jobs/1/compare?by=tensor", "{}").status, 405);
}
