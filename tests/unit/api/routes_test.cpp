#include <thread>

#include <jetperf/config.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

using routes_test = api_fixture;

TEST_F(routes_test, health_reports_version_queue_and_extras_without_token) {
  const auto id = submit_idle();
  auto res = router().handle(request("GET", "/v1/health", {}, /*with_token=*/false));
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type, "application/json");
  auto j = json_of(res);
  EXPECT_EQ(j["status"], "ok");  // the extra "status" must not override the core field
  EXPECT_EQ(j["version"], JETPERF_VERSION);
  EXPECT_GE(j["uptime_s"].get<double>(), 0.0);
  EXPECT_EQ(j["queue"]["queued"], 1);
  EXPECT_TRUE(j["queue"]["running"].is_null());
  EXPECT_EQ(j["board"], "test-board");
  (void)id;
}

TEST_F(routes_test, time_returns_both_clocks) {
  auto res = call("GET", "/v1/time");
  ASSERT_EQ(res.status, 200);
  auto j = json_of(res);
  EXPECT_GT(j["monotonic_ns"].get<std::int64_t>(), 0);
  EXPECT_GT(j["wall_ns"].get<std::int64_t>(), 1600000000LL * 1000000000LL);
  const auto wall = j["wall"].get<std::string>();
  ASSERT_EQ(wall.size(), 24u) << wall;
  EXPECT_EQ(wall.back(), 'Z');
  EXPECT_EQ(wall[10], 'T');
}

TEST_F(routes_test, openapi_is_served_as_parseable_json) {
  auto res = call("GET", "/v1/openapi.json");
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(res.body, std::string(api::openapi_json()));
  auto j = json_of(res);
  EXPECT_EQ(j["openapi"].get<std::string>().substr(0, 2), "3.");
  EXPECT_TRUE(j["paths"].contains("/v1/jobs/{id}/results"));
}

TEST_F(routes_test, every_registered_route_is_in_the_contract) {
  const auto doc = contract();
  for (const auto& r : router().routes().routes()) {
    std::string method = r.method;
    for (auto& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_TRUE(doc["paths"].contains(r.pattern) && doc["paths"][r.pattern].contains(method))
        << r.method << " " << r.pattern << " is missing from proto/openapi.json";
  }
}

// The API's 404s are JSON; "/" without a page is an HTML page for a browser (web_routes_test).
TEST_F(routes_test, unknown_path_is_404_with_error_body) {
  for (const char* target : {"/v1/nope", "/v1/jobs/1/nope", "/v1/jobs/", "/v2/health", ""}) {
    auto res = call("GET", target);
    EXPECT_EQ(res.status, 404) << target;
    auto j = json_of(res);
    EXPECT_EQ(j["error"]["code"], "not_found");
    EXPECT_TRUE(j["error"]["field"].is_null());
  }
  const auto page = call("GET", "/");
  EXPECT_EQ(page.status, 404);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
}

TEST_F(routes_test, wrong_method_is_405_with_allow) {
  auto res = call("PUT", "/v1/jobs");
  EXPECT_EQ(res.status, 405);
  EXPECT_EQ(header_of(res, "Allow"), "POST, GET, HEAD");
  EXPECT_EQ(json_of(res)["error"]["code"], "method_not_allowed");
  res = call("POST", "/v1/health");
  EXPECT_EQ(res.status, 405);
  EXPECT_EQ(header_of(res, "Allow"), "GET, HEAD");
  res = call("DELETE", "/v1/jobs/3/results");
  EXPECT_EQ(res.status, 405);
}

// HEAD is answered wherever GET is (issue 58 item 7: HEAD /v1/health was a 405), without the token
// where GET needs none, and it changes nothing; the HTTP layer drops the body.
TEST_F(routes_test, head_is_answered_wherever_get_is) {
  const auto id = submit_idle();
  for (const auto* target : {"/v1/health", "/v1/time", "/v1/jobs", "/v1/openapi.json"}) {
    const auto get = router().handle(request("GET", target, {}, /*with_token=*/false));
    const auto head = router().handle(request("HEAD", target, {}, /*with_token=*/false));
    EXPECT_EQ(head.status, get.status) << target << ": " << head.body;
    EXPECT_EQ(head.content_type, get.content_type) << target;
  }
  EXPECT_EQ(call("HEAD", "/v1/jobs/" + std::to_string(id)).status, 200);
  EXPECT_EQ(call("HEAD", "/v1/jobs/999").status, 404);
  // Never a mutating route's.
  const auto res = call("HEAD", "/v1/clocks/restore");
  EXPECT_EQ(res.status, 405) << res.body;
}

TEST_F(routes_test, submit_returns_201_location_and_job) {
  auto res = call("POST", "/v1/jobs", R"({"kind":"idle","spec":{"duration_s":0.5,"repeats":3},"tags":["a","b.c"]})");
  ASSERT_EQ(res.status, 201) << res.body;
  auto j = json_of(res);
  const auto id = j["id"].get<std::int64_t>();
  EXPECT_GT(id, 0);
  EXPECT_EQ(header_of(res, "Location"), "/v1/jobs/" + std::to_string(id));
  EXPECT_EQ(j["kind"], "idle");
  EXPECT_EQ(j["state"], "queued");
  EXPECT_EQ(j["spec"]["repeats"], 3);
  EXPECT_EQ(j["progress"]["total"], 3);
  EXPECT_DOUBLE_EQ(j["estimate_s"].get<double>(), 1.5);
  EXPECT_EQ(j["tags"], nlohmann::json::array({"a", "b.c"}));
  EXPECT_EQ(job_count(), 1);
}

TEST_F(routes_test, submit_fills_defaults_and_accepts_charset) {
  auto req = request("POST", "/v1/jobs", R"({"kind":"idle"})", true, "Application/JSON; charset=utf-8");
  auto res = router().handle(req);
  ASSERT_EQ(res.status, 201) << res.body;
  EXPECT_EQ(json_of(res)["spec"], (nlohmann::json{{"duration_s", 1.0}, {"repeats", 1}}));
}

TEST_F(routes_test, dry_run_stores_nothing) {
  auto res = call("POST", "/v1/jobs", R"({"kind":"idle","spec":{"repeats":4,"duration_s":2},"dry_run":true})");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  EXPECT_EQ(j["points"], 4);
  EXPECT_DOUBLE_EQ(j["estimate_s"].get<double>(), 8.0);
  EXPECT_EQ(j["spec"]["repeats"], 4);
  // What will run, in order.
  ASSERT_EQ(j["planned"].size(), 4u);
  EXPECT_EQ(j["planned"][3]["repeat"], 3);
  EXPECT_EQ(j["planned_more"], 0);
  EXPECT_EQ(job_count(), 0);
  EXPECT_TRUE(header_of(res, "Location").empty());
}

TEST_F(routes_test, get_job_and_bad_ids) {
  const auto id = submit_idle({{"repeats", 2}});
  auto res = call("GET", "/v1/jobs/" + std::to_string(id));
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(json_of(res)["id"], id);
  EXPECT_EQ(call("GET", "/v1/jobs/999").status, 404);
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/999"))["error"]["code"], "not_found");
  for (const char* bad : {"0", "-1", "abc", "1.5", "+1", "99999999999999999999", "1%20", "0x10"}) {
    auto r = call("GET", std::string("/v1/jobs/") + bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(json_of(r)["error"]["field"], "id") << bad;
  }
}

TEST_F(routes_test, cancel_queued_then_conflict) {
  const auto id = submit_idle();
  auto res = call("DELETE", "/v1/jobs/" + std::to_string(id));
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["state"], "cancelled");
  res = call("DELETE", "/v1/jobs/" + std::to_string(id));
  EXPECT_EQ(res.status, 409);
  EXPECT_EQ(json_of(res)["error"]["code"], "conflict");
  EXPECT_EQ(call("DELETE", "/v1/jobs/12345").status, 404);
}

TEST_F(routes_test, resume_of_a_queued_job_is_a_conflict) {
  const auto id = submit_idle();
  EXPECT_EQ(call("POST", "/v1/jobs/" + std::to_string(id) + "/resume").status, 409);
  EXPECT_EQ(call("POST", "/v1/jobs/77/resume").status, 404);
}

TEST_F(routes_test, list_filters_and_pages) {
  const auto a = submit_idle({}, {"alpha"});
  const auto b = submit_idle({}, {"beta"});
  const auto c = submit_idle({}, {"alpha", "x"});
  service_->cancel(b);
  auto j = json_of(call("GET", "/v1/jobs"));
  EXPECT_EQ(j["total"], 3);
  EXPECT_EQ(j["limit"], 50);
  EXPECT_EQ(j["offset"], 0);
  ASSERT_EQ(j["jobs"].size(), 3u);
  EXPECT_EQ(j["jobs"][0]["id"], c);  // newest first

  j = json_of(call("GET", "/v1/jobs?tag=alpha"));
  EXPECT_EQ(j["total"], 2);
  j = json_of(call("GET", "/v1/jobs?state=cancelled"));
  ASSERT_EQ(j["total"], 1);
  EXPECT_EQ(j["jobs"][0]["id"], b);
  j = json_of(call("GET", "/v1/jobs?kind=idle&limit=1&offset=1"));
  EXPECT_EQ(j["total"], 3);
  EXPECT_EQ(j["limit"], 1);
  ASSERT_EQ(j["jobs"].size(), 1u);
  EXPECT_EQ(j["jobs"][0]["id"], b);
  j = json_of(call("GET", "/v1/jobs?kind=gemm"));
  EXPECT_EQ(j["total"], 0);
  j = json_of(call("GET", "/v1/jobs?state=queued&tag=alpha"));
  EXPECT_EQ(j["total"], 2);
  (void)a;
}

TEST_F(routes_test, list_rejects_bad_query_values_naming_the_parameter) {
  struct bad {
    const char* query;
    const char* field;
  };
  for (const auto& t : {bad{"limit=0", "limit"}, bad{"limit=1001", "limit"}, bad{"limit=abc", "limit"},
                        bad{"limit=", "limit"}, bad{"limit=1.5", "limit"}, bad{"offset=-1", "offset"},
                        bad{"offset=x", "offset"}, bad{"state=done", "state"}, bad{"tag=a%20b", "tag"},
                        bad{"kind=", "kind"}, bad{"colour=red", "colour"}, bad{"limit=1&limit=2", "limit"},
                        bad{"tag=%zz", "tag"}}) {
    auto res = call("GET", std::string("/v1/jobs?") + t.query);
    EXPECT_EQ(res.status, 400) << t.query;
    EXPECT_EQ(json_of(res)["error"]["field"], t.field) << t.query << " -> " << res.body;
  }
}

TEST_F(routes_test, get_routes_reject_unknown_query_parameters) {
  auto res = call("GET", "/v1/time?x=1");
  EXPECT_EQ(res.status, 400);
  EXPECT_EQ(json_of(res)["error"]["field"], "x");
}

TEST_F(routes_test, running_job_shows_in_health_and_finishes) {
  auto res = call("POST", "/v1/jobs", R"({"kind":"idle","spec":{"duration_s":0.05,"repeats":2}})");
  ASSERT_EQ(res.status, 201);
  const auto id = json_of(res)["id"].get<std::int64_t>();
  service_->start();
  std::string state;
  for (int i = 0; i < 500 && state != "succeeded"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    state = json_of(call("GET", "/v1/jobs/" + std::to_string(id)))["state"];
  }
  EXPECT_EQ(state, "succeeded");
  auto results = json_of(call("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  EXPECT_EQ(results["rows"].size(), 2u);
  EXPECT_EQ(results["rows"][1]["repeat"], 1);
  EXPECT_GE(results["rows"][0]["duration_s"].get<double>(), 0.05);
  res = call("DELETE", "/v1/jobs/" + std::to_string(id));
  EXPECT_EQ(res.status, 409);
  service_->stop();
}

}  // namespace
}  // namespace jetperf::test
