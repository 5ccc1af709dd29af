// A column is named in one place, the kind's column table: renaming it there renames it in the
// JSON results, the CSV and the client's table, with nothing else changed. The kind here is
// built with the name as a parameter, runs as a real job (job service, SQLite store, router),
// and its results are rendered by the client's own view.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/json_workload.hpp"
#include "support/json_kind.hpp"
#include <jetperf/store/cell_json.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/store/database.hpp>

#include "result_view.hpp"

using namespace jetperf;
using nlohmann::json;

namespace {

// One point, one measured value, written under the name its table gives it.
class probe_kind final : public test::json_kind {
 public:
  explicit probe_kind(const std::string& column)
      : table_{{{column, column_type::integer, column_role::metric, "", "the probe's value", true}},
               false} {}
  std::string kind() const { return "probe"; }
  const column_table& columns() const { return table_; }
  json parse(const record&, const platform::board_offer&) const { return json::object(); }
  std::vector<json> expand(const json&) const { return {json::object()}; }
  measure::point_result run_point(measure::point_context&, const json&, const json&) {
    measure::point_result r;
    r.metrics.put(table_.columns.front().name, 42);
    return r;
  }

 private:
  column_table table_;
};

struct outputs {
  std::string json_text, csv, table;
};

// Runs one probe job with the column named `column` and returns what each output says.
outputs run_probe(const std::string& column) {
  store::database db(":memory:");
  jobs::workload_registry registry;
  registry.add(jobs::make_workload(probe_kind(column)));
  event_hub hub;
  jobs::job_service service(db, registry, hub, nullptr, nullptr);
  service.start();
  const auto id = service.submit("probe", jetperf::test::spec_of(json::object()), {}).id;
  for (int i = 0; i < 500 && service.get(id).state != jobs::job_state::succeeded; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(service.get(id).state, jobs::job_state::succeeded);
  api::services s;
  s.jobs = &service;
  s.hub = &hub;
  s.auth.token = "token-token-token-token";
  api::router router(std::move(s));
  const auto get = [&](const std::string& target) {
    api::http_request r;
    r.method = "GET";
    r.target = target;
    const auto res = router.handle(r);
    EXPECT_EQ(res.status, 200) << res.body;
    return res.body;
  };
  outputs out;
  out.json_text = get("/v1/jobs/" + std::to_string(id) + "/results");
  out.csv = get("/v1/jobs/" + std::to_string(id) + "/results?format=csv");
  out.table = client::format_results_view(json::parse(out.json_text), {});
  service.stop();
  return out;
}

TEST(column_rename, one_name_in_the_table_is_the_name_in_json_csv_and_the_client) {
  for (const std::string name : {"answer", "answer_renamed"}) {
    const auto out = run_probe(name);
    const auto results = json::parse(out.json_text);
    bool declared = false;
    for (const auto& c : results["columns"]) declared = declared || c["name"] == name;
    EXPECT_TRUE(declared) << out.json_text;
    EXPECT_EQ(results["rows"][0][name], 42) << out.json_text;
    EXPECT_EQ(out.csv,
              "index,status," + name + ",window_start_ns,window_end_ns,reason,error,implausible\r\n0,ok,42,,,,,\r\n");
    EXPECT_EQ(out.table.substr(0, out.table.find('\n')), "status  " + name) << out.table;
    // Numbers right-aligned under their header.
    EXPECT_NE(out.table.find("\nok" + std::string(name.size() + 4, ' ') + "42\n"), std::string::npos) << out.table;
    const std::string other = name == "answer" ? "answer_renamed" : "\"answer\"";
    EXPECT_EQ(out.json_text.find(other), std::string::npos) << out.json_text;
  }
}

}  // namespace
