// Issue "A typed middle": a new kind is its own files plus one registration line. The copy kind
// (added_kind/) is written from CONTRIBUTING.md's list alone; registered here as daemon/kinds.cpp
// would register it, it is served, validated, dry-run, measured, stored, exported and shown by
// the real job service, API and client views with no change to any of them.
#include <chrono>
#include <regex>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/api/router.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/store/database.hpp>

#include "added_kind/copy_kind.hpp"
#include "result_view.hpp"
#include "summary_tables.hpp"
#include "summary_view.hpp"
#include "support/fake_sources.hpp"

namespace jetperf::test {
namespace {

using nlohmann::json;

class added_kind : public ::testing::Test {
 protected:
  added_kind() {
    registry_.add(make_copy_kind());  // the registration line
    service_ = std::make_unique<jobs::job_service>(db_, registry_, hub_, nullptr, &power_);
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = "token-token-token-token";
    router_ = std::make_unique<api::router>(std::move(s));
  }
  ~added_kind() override { service_->stop(); }

  api::http_response call(const std::string& method, const std::string& target, const std::string& body = {}) {
    api::http_request r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.headers["authorization"] = "Bearer token-token-token-token";
    if (method == "POST") r.headers["content-type"] = "application/json";
    return router_->handle(r);
  }

  fake_source power_;
  store::database db_{":memory:"};
  jobs::workload_registry registry_;
  event_hub hub_;
  std::unique_ptr<jobs::job_service> service_;
  std::unique_ptr<api::router> router_;
};

TEST_F(added_kind, is_described_by_its_own_declarations) {
  const auto res = call("GET", "/v1/kinds/copy");
  ASSERT_EQ(res.status, 200) << res.body;
  const auto k = json::parse(res.body);
  EXPECT_EQ(k["description"], "A buffer copied over and over: time, GB/s and power per size.");
  std::vector<std::string> fields, columns;
  for (const auto& f : k["spec"]["fields"]) fields.push_back(f["name"]);
  for (const auto& c : k["columns"]) columns.push_back(c["name"]);
  EXPECT_EQ(fields, (std::vector<std::string>{"sizes", "repeats", "window_s"}));
  EXPECT_EQ(std::vector<std::string>(columns.begin(), columns.begin() + 6),
            (std::vector<std::string>{"index", "status", "repeat", "bytes", "time_mean_s", "gb_per_s"}));
  EXPECT_EQ(columns.back(), "implausible");
}

TEST_F(added_kind, bad_specs_are_refused_naming_the_field) {
  auto res = call("POST", "/v1/jobs", R"({"kind":"copy","spec":{"sizes":[16]}})");
  EXPECT_EQ(res.status, 400);
  EXPECT_EQ(json::parse(res.body)["error"]["field"], "spec.sizes") << res.body;
  res = call("POST", "/v1/jobs", R"({"kind":"copy","spec":{"size":1024}})");
  EXPECT_EQ(res.status, 400);
  EXPECT_EQ(json::parse(res.body)["error"]["field"], "spec.size") << res.body;
  EXPECT_EQ(json::parse(call("GET", "/v1/jobs").body)["jobs"].size(), 0u);
}

TEST_F(added_kind, a_dry_run_plans_its_typed_points) {
  const auto res = call("POST", "/v1/jobs", R"({"kind":"copy","spec":{"sizes":[1024,4096],"repeats":2},"dry_run":true})");
  ASSERT_EQ(res.status, 200) << res.body;
  const auto plan = json::parse(res.body);
  EXPECT_EQ(plan["points"], 4);
  EXPECT_EQ(plan["spec"], (json{{"sizes", {1024, 4096}}, {"repeats", 2}, {"window_s", 0.05}}));
  EXPECT_EQ(plan["planned"][3], (json{{"bytes", 4096}, {"repeat", 1}}));
}

TEST_F(added_kind, runs_and_every_output_reads_its_columns) {
  // Two repeats: a comparison along repeat needs a job that swept it.
  auto res = call("POST", "/v1/jobs", R"({"kind":"copy","spec":{"sizes":[1024,65536],"repeats":2,"window_s":0.03}})");
  ASSERT_EQ(res.status, 201) << res.body;
  const auto id = std::to_string(json::parse(res.body)["id"].get<std::int64_t>());
  service_->start();
  std::string state;
  for (int i = 0; i < 1000 && state != "succeeded" && state != "failed" && state != "partial"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    state = json::parse(call("GET", "/v1/jobs/" + id).body)["state"];
  }
  ASSERT_EQ(state, "succeeded");

  const auto results = json::parse(call("GET", "/v1/jobs/" + id + "/results").body);
  ASSERT_EQ(results["rows"].size(), 4u);
  for (const auto& row : results["rows"]) {
    EXPECT_EQ(row["status"], "ok");
    EXPECT_GT(row["time_mean_s"].get<double>(), 0);
    EXPECT_NEAR(row["gb_per_s"].get<double>(), row["bytes"].get<double>() / row["time_mean_s"].get<double>() / 1e9,
                1e-9 * row["gb_per_s"].get<double>());
    EXPECT_DOUBLE_EQ(row["power_w"].get<double>(), 7.5);  // the fake source's constant
  }
  EXPECT_EQ(results["rows"][1]["bytes"], 65536);

  const auto csv = call("GET", "/v1/jobs/" + id + "/results?format=csv").body;
  EXPECT_EQ(csv.rfind("index,status,repeat,bytes,time_mean_s,gb_per_s,", 0), 0u) << csv.substr(0, 200);

  const auto job = json::parse(call("GET", "/v1/jobs/" + id).body);
  double best = 0;
  for (const auto& row : results["rows"]) best = std::max(best, row["gb_per_s"].get<double>());
  EXPECT_DOUBLE_EQ(job["summary"]["best_gb_per_s"].get<double>(), best);

  // The client knows nothing of the kind: its table and summary come from the declarations.
  const auto table = client::format_results_view(results, {});
  EXPECT_EQ(table.rfind("status  bytes", 0), 0u) << table;
  const auto summary = client::format_results_summary("copy", job["summary"]);
  EXPECT_NE(summary.find("best_gb_per_s"), std::string::npos) << summary;

  // Its comparison too: the declared view, rendered by the client's generic table; a parameter
  // no view declares is refused naming the field.
  const auto views = client::parse_compare_views(json::parse(call("GET", "/v1/kinds/copy").body));
  ASSERT_EQ(views.size(), 1u);
  const auto compared = call("GET", "/v1/jobs/" + id + "/compare?by=repeat");
  ASSERT_EQ(compared.status, 200) << compared.body;
  const auto compare_text = client::format_summary_table(client::with_by(views[0].table, "repeat"), json::parse(compared.body));
  EXPECT_EQ(compare_text.rfind("bytes  fastest_repeat  gb_per_s  repeat values\n", 0), 0u) << compare_text;
  EXPECT_TRUE(std::regex_search(compare_text, std::regex("\n65536 +[01] +[0-9.]+ +2\n"))) << compare_text;
  const auto refused = call("GET", "/v1/jobs/" + id + "/compare?by=bytes");
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(json::parse(refused.body)["error"]["field"], "by");
}

}  // namespace
}  // namespace jetperf::test
