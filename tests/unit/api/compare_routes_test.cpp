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

  // A finished gemm job that swept every parameter a view compares by: one point, and beside it
  // one point for each parameter that differs from it in that parameter alone.
  std::int64_t every_parameter_job() {
    const json base{{"power_mode", 0}, {"emc_freq_hz", 2133000000}, {"gpu_freq_hz", 624750000},
                    {"cpu_freq_khz", 1728000}, {"device", "cuda"}, {"dtype", "half"}, {"tensor", "on"},
                    {"m", 1024}, {"n", 1024}, {"k", 1024}, {"repeat", 0}};
    const json other{{"power_mode", 3}, {"emc_freq_hz", 3199000000LL}, {"gpu_freq_hz", 828750000},
                     {"cpu_freq_khz", 2201600}, {"device", "cpu"}, {"dtype", "float"}, {"tensor", "off"},
                     {"m", 2048}, {"n", 2048}, {"k", 2048}, {"repeat", 1}};
    std::vector<json> points{base};
    for (const auto& item : other.items()) {
      auto p = base;
      p[item.key()] = item.value();
      points.push_back(p);
    }
    store::job_store raw(db_);
    const auto id = raw.insert("gemm", json::object(), {}, static_cast<std::int64_t>(points.size()), 1.0);
    int index = 0;
    for (const auto& params : points) {
      store::point_record p;
      p.job_id = id;
      p.index = index++;
      p.status = "ok";
      p.params = params;
      p.metrics = {{"gflops", 1000.0 + index}, {"power_w", 10.0}, {"gflops_per_w", (1000.0 + index) / 10.0}};
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

// What GET /v1/kinds declares is what compare answers: every declared parameter a job swept is
// accepted, the table's columns are keys of the rows, and a parameter no view declares is refused.
TEST_F(compare_routes, the_declared_views_are_the_comparisons_made) {
  const auto id = every_parameter_job();
  const auto kind = json_of(call("GET", "/v1/kinds/gemm"));
  ASSERT_TRUE(kind.contains("compare_views")) << kind.dump();
  std::size_t parameters = 0;
  for (const auto& view : kind["compare_views"]) {
    for (const auto& by : view["by"]) {
      const auto name = by.get<std::string>();
      const auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/compare?by=" + name);
      ASSERT_EQ(res.status, 200) << name << ": " << res.body;
      const auto rows = json_of(res)["rows"];
      ++parameters;
      if (name != "tensor" && name != "device") continue;  // the others group two points into one row
      ASSERT_FALSE(rows.empty()) << name;
      for (const auto& c : view["table"]["columns"]) {
        auto path = c["path"].get<std::string>();
        for (auto at = path.find("{by}"); at != std::string::npos; at = path.find("{by}")) path.replace(at, 4, name);
        if (!path.empty()) EXPECT_TRUE(rows[0].contains(path)) << name << ": " << path << " in " << rows[0].dump();
      }
    }
  }
  EXPECT_EQ(parameters, 11u);
  EXPECT_EQ(call("GET", "/v1/jobs/" + std::to_string(id) + "/compare?by=colour").status, 400);
  // A declared parameter the job held at one value compares nothing: 400 naming by and what it swept.
  const auto tensor_only = gemm_job();
  const auto res = call("GET", "/v1/jobs/" + std::to_string(tensor_only) + "/compare?by=gpu_freq_hz");
  EXPECT_EQ(res.status, 400) << res.body;
  EXPECT_EQ(json_of(res)["error"]["field"], "by") << res.body;
  EXPECT_EQ(json_of(res)["error"]["code"], "not_swept") << res.body;
  EXPECT_NE(json_of(res)["error"]["message"].get<std::string>().find("it swept: tensor"), std::string::npos) << res.body;
  const auto idle = json_of(call("GET", "/v1/kinds/idle"));
  EXPECT_EQ(idle["compare_views"], json::array());
}
