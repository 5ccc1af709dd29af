#include <jetperf/api/csv_writer.hpp>
#include <jetperf/api/result_table.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

class results_test : public api_fixture {
 protected:
  // Three points of an idle job: measured (with a rail, a value no column declares and an
  // integer column stored as a float), failed, skipped.
  std::int64_t job_with_points() {
    const auto id = submit_idle({{"repeats", 3}});
    store::job_store js(db_);
    store::point_record p;
    p.job_id = id;
    p.index = 0;
    p.status = "ok";
    p.params = {{"repeat", 0}};
    p.metrics = {{"repeat", 0},           {"duration_s", 1.0 / 3.0},  {"power_w", 1.25},
                 {"samples", 10.0},       {"rail_VDD_GPU_SOC_w", 0.5}, {"note", "a,b \"q\""}};
    p.t_start_ns = 1000;
    p.t_end_ns = 2500;
    js.add_point(p);
    p.t_start_ns = p.t_end_ns = 0;
    p.index = 1;
    p.status = "failed";
    p.params = {{"repeat", 1}};
    p.metrics = {{"error", "boom"}, {"kernels", {"k1", "k2"}}};
    js.add_point(p);
    p.index = 2;
    p.status = "skipped";
    p.params = {{"repeat", 2}};
    p.metrics = {{"reason", "no CUDA device\nline2"}};
    js.add_point(p);
    return id;
  }
};

// idle's declared columns, its rail, the trailing ones, then what no column declares.
const std::vector<std::string> k_columns = {"index",           "status",        "repeat",  "duration_s",
                                            "power_w",         "samples",       "rail_VDD_GPU_SOC_w",
                                            "window_start_ns", "window_end_ns", "reason",  "error",
                                            "implausible",     "kernels",       "note"};

std::vector<std::string> names_of(const nlohmann::json& columns) {
  std::vector<std::string> out;
  for (const auto& c : columns) out.push_back(c.at("name").get<std::string>());
  return out;
}

TEST_F(results_test, json_has_job_columns_rows_and_summary) {
  const auto id = job_with_points();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  EXPECT_EQ(j["job"]["id"], id);
  EXPECT_EQ(names_of(j["columns"]), k_columns);
  EXPECT_EQ(j["columns"][3], (nlohmann::json{{"name", "duration_s"}, {"type", "number"}, {"role", "metric"},
                                             {"unit", "s"}, {"description", "length of the window measured"},
                                             {"shown", true}}));
  EXPECT_EQ(j["columns"][6]["unit"], "W");
  ASSERT_EQ(j["rows"].size(), 3u);
  const auto& r0 = j["rows"][0];
  EXPECT_EQ(r0["index"], 0);
  EXPECT_EQ(r0["status"], "ok");
  EXPECT_DOUBLE_EQ(r0["rail_VDD_GPU_SOC_w"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(r0["duration_s"].get<double>(), 1.0 / 3.0);
  // The measurement window, on the samples' clock: where GET .../samples?point=0 looks.
  EXPECT_EQ(r0["window_start_ns"], 1000);
  EXPECT_EQ(r0["window_end_ns"], 2500);
  // Every row has every column, null where the point has no value.
  for (const auto& row : j["rows"]) EXPECT_EQ(row.size(), k_columns.size());
  EXPECT_TRUE(j["rows"][1]["power_w"].is_null());
  EXPECT_EQ(j["rows"][1]["repeat"], 1);
  EXPECT_EQ(j["rows"][1]["error"], "boom");
  EXPECT_EQ(j["rows"][1]["kernels"], nlohmann::json::array({"k1", "k2"}));
  EXPECT_EQ(j["rows"][2]["reason"], "no CUDA device\nline2");
  EXPECT_TRUE(j["summary"].is_object());
  // Explicit format=json is the same.
  EXPECT_EQ(call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=json").body, res.body);
}

TEST_F(results_test, csv_quotes_joins_lists_and_keeps_integers_integral) {
  const auto id = job_with_points();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=csv");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type.substr(0, 8), "text/csv");
  const std::string expected =
      "index,status,repeat,duration_s,power_w,samples,rail_VDD_GPU_SOC_w,window_start_ns,window_end_ns,reason,error,"
      "implausible,kernels,note\r\n"
      "0,ok,0,0.3333333333333333,1.25,10,0.5,1000,2500,,,,,\"a,b \"\"q\"\"\"\r\n"
      "1,failed,1,,,,,,,,boom,,k1;k2,\r\n"
      "2,skipped,2,,,,,,,\"no CUDA device\nline2\",,,,\r\n";
  EXPECT_EQ(res.body, expected);
}

TEST(csv_quote, text_a_spreadsheet_would_run_as_a_formula_stays_text) {
  EXPECT_EQ(api::csv_quote("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
  EXPECT_EQ(api::csv_quote("+1+1"), "'+1+1");
  EXPECT_EQ(api::csv_quote("-2+3"), "'-2+3");
  EXPECT_EQ(api::csv_quote("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(api::csv_quote("=HYPERLINK(\"x\",1)"), "\"'=HYPERLINK(\"\"x\"\",1)\"");
  EXPECT_EQ(api::csv_quote("\t=1"), "'\t=1");
  EXPECT_EQ(api::csv_quote("resnet50"), "resnet50");
  EXPECT_EQ(api::csv_quote("layer1.0"), "layer1.0");
  // Numbers are cells of their own kind: a negative value stays a number.
  EXPECT_EQ(api::csv_cell(nlohmann::json(-1.5), column_type::number), "-1.5");
}

TEST_F(results_test, a_job_with_no_points_has_the_kinds_columns) {
  const auto id = submit_idle();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=csv");
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(res.body,
            "index,status,repeat,duration_s,power_w,samples,window_start_ns,window_end_ns,reason,error,implausible\r\n");
  auto j = json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  EXPECT_TRUE(j["rows"].empty());
  EXPECT_EQ(j["columns"].size(), 11u);
}

TEST_F(results_test, bad_format_unknown_job_and_bad_id) {
  const auto id = submit_idle();
  auto res = call("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=xml");
  EXPECT_EQ(res.status, 400);
  EXPECT_EQ(json_of(res)["error"]["field"], "format");
  EXPECT_EQ(call("GET", "/v1/jobs/4242/results").status, 404);
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/x/results"))["error"]["field"], "id");
}

TEST_F(results_test, jobs_carrying_all_tags_make_one_table_with_job_and_tags_columns) {
  const auto a = submit_idle({{"repeats", 2}}, {"exp1", "mode0"});
  const auto b = submit_idle({{"repeats", 1}}, {"exp1", "mode1"});
  submit_idle({{"repeats", 1}}, {"exp2", "mode0"});
  store::job_store js(db_);
  for (const auto id : {a, b})
    for (int i = 0; i < (id == a ? 2 : 1); ++i) {
      store::point_record p;
      p.job_id = id;
      p.index = i;
      p.metrics = {{"power_w", 1.0 + static_cast<double>(id)}};
      js.add_point(p);
    }
  auto j = json_of(call("GET", "/v1/results?tags=exp1"));
  ASSERT_EQ(j["rows"].size(), 3u) << j.dump();
  EXPECT_EQ(j["kind"], "idle");
  EXPECT_EQ(j["columns"][0]["name"], "job_id");
  EXPECT_EQ(j["columns"][1]["name"], "tags");
  // Oldest job first, each row naming its job and tags.
  EXPECT_EQ(j["rows"][0]["job_id"], a);
  EXPECT_EQ(j["rows"][1]["index"], 1);
  EXPECT_EQ(j["rows"][2]["job_id"], b);
  EXPECT_EQ(j["rows"][2]["tags"], nlohmann::json({"exp1", "mode1"}));
  EXPECT_EQ(j["jobs"].size(), 2u);
  // Tags AND: only the job carrying both.
  j = json_of(call("GET", "/v1/results?tags=exp1,mode0"));
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][1]["job_id"], a);
  const auto csv = call("GET", "/v1/results?tags=exp1,mode1&format=csv");
  ASSERT_EQ(csv.status, 200);
  EXPECT_EQ(csv.body.substr(0, csv.body.find("\r\n")).rfind("job_id,tags,index,status,", 0), 0u) << csv.body;
  EXPECT_EQ(json_of(call("GET", "/v1/results"))["error"]["field"], "tags");
  EXPECT_EQ(json_of(call("GET", "/v1/results?tags=a,,b"))["error"]["field"], "tags");
  EXPECT_TRUE(json_of(call("GET", "/v1/results?tags=nobody"))["rows"].empty());
}

column_table two_columns() {
  return {{{"m", column_type::integer, column_role::parameter, "", "rows", true},
           {"power_mode", column_type::integer, column_role::parameter, "", "mode", false}},
          true,
          {}};
}

TEST(result_table, a_kinds_row_list_gives_a_row_per_item_over_the_points_values) {
  // A multi-DNN mapping: one point, one row per network stage.
  column_table table = two_columns();
  table.columns.push_back({"stage", column_type::integer, column_role::parameter, "", "stage", true});
  table.row_list = "stages";
  store::point_record mapping;
  mapping.index = 0;
  mapping.status = "ok";
  mapping.metrics = {{"power_mode", 2}, {"m", 7}, {"stages", {{{"stage", 0}, {"m", 1}}, {{"stage", 1}}}}};
  store::point_record skipped;
  skipped.index = 1;
  skipped.status = "skipped";
  skipped.metrics = {{"reason", "no GPU"}};
  const auto t = api::build_result_table(table, {}, {mapping, skipped});
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0]["stage"], 0);
  EXPECT_EQ(t.rows[0]["m"], 1);  // the item's value over the point's
  EXPECT_EQ(t.rows[1]["stage"], 1);
  EXPECT_EQ(t.rows[1]["m"], 7);  // the point's where the item has none
  EXPECT_EQ(t.rows[1]["power_mode"], 2);
  EXPECT_EQ(t.rows[2]["status"], "skipped");  // a point without items is one row
  EXPECT_EQ(t.point_of_row, (std::vector<std::size_t>{0, 0, 1}));
  for (const auto& c : t.columns) EXPECT_NE(c.name, "stages");  // the list is no column
}

TEST(result_table, a_value_comes_from_metrics_then_params) {
  store::point_record p;
  p.index = 0;
  p.status = "ok";
  p.params = {{"m", 64}, {"power_mode", nullptr}};
  p.metrics = {{"m", 128}, {"power_mode", 2}};
  const auto t = api::build_result_table(two_columns(), {}, {p});
  EXPECT_EQ(t.rows[0]["m"], 128);
  // A setting left as is shows what it was measured at.
  EXPECT_EQ(t.rows[0]["power_mode"], 2);
  p.metrics = {{"reason", "cancelled"}};
  EXPECT_EQ(api::build_result_table(two_columns(), {}, {p}).rows[0]["m"], 64);
}

TEST(result_table, board_rails_first_then_rails_only_points_have_then_undeclared_values) {
  store::point_record p;
  p.index = 0;
  p.status = "ok";
  p.params = {{"m", 1}, {"colour", "red"}};
  p.metrics = {{"rail_ZZ_w", 1.0}, {"rail_VDD_IN_w", 2.0}, {"zeta", 3}, {"alpha", {1, 2}}};
  const auto t = api::build_result_table(two_columns(), {"VDD_IN", "VDD_GPU"}, {p});
  std::vector<std::string> names;
  for (const auto& c : t.columns) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"index", "status", "m", "power_mode", "rail_VDD_IN_w", "rail_VDD_GPU_w",
                                             "rail_ZZ_w", "window_start_ns", "window_end_ns", "reason", "error",
                                             "implausible", "alpha", "colour", "zeta"}));
  EXPECT_EQ(t.columns[13].role, column_role::parameter);
  EXPECT_EQ(t.columns[12].type, column_type::list);
  EXPECT_TRUE(t.rows[0]["rail_VDD_GPU_w"].is_null());
  EXPECT_EQ(t.rows[0]["colour"], "red");
  // A kind without rails gets no rail columns from the board.
  auto no_rails = two_columns();
  no_rails.rails = false;
  EXPECT_EQ(api::build_result_table(no_rails, {"VDD_IN"}, {}).columns.size(), 9u);
}

TEST(csv_writer, cells_by_column_type) {
  EXPECT_EQ(api::csv_cell(2.0, column_type::integer), "2");
  EXPECT_EQ(api::csv_cell(2.5, column_type::integer), "2.5");
  EXPECT_EQ(api::csv_cell(2.0, column_type::number), "2.0");
  EXPECT_EQ(api::csv_cell(nlohmann::json::array(), column_type::list), "");
  EXPECT_EQ(api::csv_cell({"a", "b,c"}, column_type::list), "\"a;b,c\"");
  EXPECT_EQ(api::csv_cell({{"gpu_freq_hz", 1300500000}, {"power_mode", 0}}, column_type::object),
            "gpu_freq_hz=1300500000;power_mode=0");
  EXPECT_EQ(api::csv_cell(nullptr, column_type::integer), "");
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
