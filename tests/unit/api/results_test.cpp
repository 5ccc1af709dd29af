#include <jetperf/api/csv_writer.hpp>
#include <jetperf/api/result_table.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

class results_test : public api_fixture {
 protected:
  std::int64_t job_with_points() {
    const auto id = submit_idle({{"repeats", 3}});
    store::job_store js(db_);
    store::point_record p;
    p.job_id = id;
    p.index = 0;
    p.status = "ok";
    p.params = {{"repeat", 0}, {"dtype", "half"}};
    p.metrics = {{"time_mean_s", 1.0 / 3.0}, {"rails", {{"VDD_GPU_SOC", {{"power_w", 1.25}}}}}, {"note", "a,b \"q\""}};
    js.add_point(p);
    p.index = 1;
    p.status = "failed";
    p.params = {{"repeat", 1}, {"dtype", "float"}};
    p.metrics = {{"time_mean_s", 1e-7}, {"power_w", nullptr}, {"kernels", {"k1", "k2"}}, {"extra", 3}};
    js.add_point(p);
    p.index = 2;
    p.status = "skipped";
    p.params = {{"repeat", 2}};
    p.metrics = {{"skipped", "no CUDA device\nline2"}};
    js.add_point(p);
    return id;
  }
};

const std::vector<std::string> k_columns = {"index",       "status", "dtype",   "repeat",  "note",
                                            "rails.VDD_GPU_SOC.power_w", "time_mean_s", "extra",
                                            "kernels",     "power_w", "skipped"};

TEST_F(results_test, json_has_job_columns_rows_and_summary) {
  const auto id = job_with_points();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  EXPECT_EQ(j["job"]["id"], id);
  EXPECT_EQ(j["columns"].get<std::vector<std::string>>(), k_columns);
  ASSERT_EQ(j["rows"].size(), 3u);
  const auto& r0 = j["rows"][0];
  EXPECT_EQ(r0["index"], 0);
  EXPECT_EQ(r0["status"], "ok");
  EXPECT_EQ(r0["dtype"], "half");
  EXPECT_DOUBLE_EQ(r0["rails.VDD_GPU_SOC.power_w"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(r0["time_mean_s"].get<double>(), 1.0 / 3.0);
  EXPECT_FALSE(r0.contains("extra"));
  EXPECT_TRUE(j["rows"][1]["power_w"].is_null());
  EXPECT_EQ(j["rows"][1]["kernels"], nlohmann::json::array({"k1", "k2"}));
  EXPECT_EQ(j["rows"][2]["skipped"], "no CUDA device\nline2");
  EXPECT_TRUE(j["summary"].is_object());
  // Explicit format=json is the same.
  EXPECT_EQ(call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=json").body, res.body);
}

TEST_F(results_test, csv_quotes_and_prints_full_precision) {
  const auto id = job_with_points();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=csv");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type.substr(0, 8), "text/csv");
  const std::string expected =
      "index,status,dtype,repeat,note,rails.VDD_GPU_SOC.power_w,time_mean_s,extra,kernels,power_w,skipped\r\n"
      "0,ok,half,0,\"a,b \"\"q\"\"\",1.25,0.3333333333333333,,,,\r\n"
      "1,failed,float,1,,,1e-07,3,\"[\"\"k1\"\",\"\"k2\"\"]\",,\r\n"
      "2,skipped,,2,,,,,,,\"no CUDA device\nline2\"\r\n";
  EXPECT_EQ(res.body, expected);
}

TEST_F(results_test, empty_job_has_header_only_csv) {
  const auto id = submit_idle();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=csv");
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "index,status\r\n");
  auto j = json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  EXPECT_TRUE(j["rows"].empty());
}

TEST_F(results_test, bad_format_unknown_job_and_bad_id) {
  const auto id = submit_idle();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=xml");
  EXPECT_EQ(res.status, 400);
  EXPECT_EQ(json_of(res)["error"]["field"], "format");
  EXPECT_EQ(call("GET", "/v1/jobs/4242/results").status, 404);
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/x/results"))["error"]["field"], "id");
}

TEST(result_table, collisions_keep_both_values) {
  store::point_record p;
  p.index = 5;
  p.status = "ok";
  p.params = {{"status", "param-status"}, {"n", 1}};
  p.metrics = {{"n", 2}, {"a", {{"b", {{"c", true}}}}}};
  const auto t = api::build_result_table({p});
  EXPECT_EQ(t.columns, (std::vector<std::string>{"index", "status", "n", "params.status", "a.b.c", "metrics.n"}));
  EXPECT_EQ(t.rows[0]["status"], "ok");
  EXPECT_EQ(t.rows[0]["params.status"], "param-status");
  EXPECT_EQ(t.rows[0]["n"], 1);
  EXPECT_EQ(t.rows[0]["metrics.n"], 2);
  EXPECT_EQ(t.rows[0]["a.b.c"], true);
}

TEST(result_table, a_metric_echoing_its_param_is_one_column) {
  store::point_record p;
  p.index = 0;
  p.status = "ok";
  p.params = {{"dtype", "float"}, {"m", 64}};
  p.metrics = {{"dtype", "float"}, {"m", 128}, {"gflops", 3.5}};
  const auto t = api::build_result_table({p});
  EXPECT_EQ(t.columns, (std::vector<std::string>{"index", "status", "dtype", "m", "gflops", "metrics.m"}));
  EXPECT_EQ(t.rows[0]["m"], 64);
  EXPECT_EQ(t.rows[0]["metrics.m"], 128);
}

TEST(result_table, a_setting_left_as_is_shows_what_it_was) {
  store::point_record p;
  p.index = 0;
  p.status = "ok";
  p.params = {{"power_mode", nullptr}, {"cpu_freq_khz", 115200}};
  p.metrics = {{"power_mode", 2}, {"cpu_freq_khz", 115200}};
  const auto t = api::build_result_table({p});
  EXPECT_EQ(t.columns, (std::vector<std::string>{"index", "status", "cpu_freq_khz", "power_mode"}));
  EXPECT_EQ(t.rows[0]["power_mode"], 2);
}

TEST(csv_writer, fields) {
  EXPECT_EQ(api::csv_field(nullptr), "");
  EXPECT_EQ(api::csv_field(0.1), "0.1");
  EXPECT_EQ(api::csv_field(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(api::csv_field(123456789012345LL), "123456789012345");
  EXPECT_EQ(api::csv_field(false), "false");
  EXPECT_EQ(api::csv_field("plain"), "plain");
  EXPECT_EQ(api::csv_field("cr\rlf"), "\"cr\rlf\"");
  EXPECT_EQ(api::csv_field(std::numeric_limits<double>::quiet_NaN()), "");
  EXPECT_EQ(api::csv_quote("\""), "\"\"\"\"");
}

}  // namespace
}  // namespace jetperf::test
