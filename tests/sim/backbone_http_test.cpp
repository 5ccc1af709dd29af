// The REST API over raw HTTP/1.1 against a real daemon: statuses, headers, error bodies, limits.
#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

class http_backbone : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new daemon_process(); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static daemon_process* daemon_;
};
daemon_process* http_backbone::daemon_ = nullptr;

void expect_error_body(const http_result& r, const std::string& code_hint = {}) {
  const auto j = json_of(r);
  ASSERT_TRUE(j.is_object()) << r.body;
  ASSERT_TRUE(j.contains("error")) << r.body;
  EXPECT_TRUE(j["error"]["code"].is_string()) << r.body;
  EXPECT_FALSE(j["error"]["message"].get<std::string>().empty()) << r.body;
  if (!code_hint.empty()) {
    EXPECT_EQ(j["error"]["code"], code_hint) << r.body;
  }
}

TEST_F(http_backbone, health_and_time) {
  http_client http(daemon_->port());
  auto r = http.request("GET", "/v1/health");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.header("content-type").find("application/json"), std::string::npos);
  EXPECT_TRUE(json_of(r).is_object()) << r.body;
  r = http.request("GET", "/v1/time");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(json_of(r).is_object()) << r.body;
  EXPECT_EQ(http.reused(), 1);  // keep-alive held
}

TEST_F(http_backbone, submit_returns_201_location_and_the_job) {
  http_client http(daemon_->port());
  const nlohmann::json body{{"kind", "idle"}, {"spec", {{"duration_s", 0.01}, {"repeats", 2}}}, {"tags", {"raw"}}};
  auto r = http.request("POST", "/v1/jobs", body.dump(), bearer(daemon_->token()));
  ASSERT_EQ(r.status, 201) << r.body;
  const auto job = json_of(r);
  const auto id = job.value("id", std::int64_t{0});
  ASSERT_GT(id, 0);
  EXPECT_EQ(r.header("location"), "/v1/jobs/" + std::to_string(id));
  EXPECT_EQ(job["kind"], "idle");
  // The runner may pick it up before the answer is written.
  EXPECT_TRUE(job["state"] == "queued" || job["state"] == "running") << job["state"];
  EXPECT_EQ(job["progress"]["total"], 2);
  for (const char* key : {"spec", "tags", "created_at", "started_at", "finished_at", "estimate_s", "error", "summary"})
    EXPECT_TRUE(job.contains(key)) << key << " missing in " << r.body;

  EXPECT_EQ(wait_state(http, id, {"succeeded", "failed"}), "succeeded");
  r = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=json");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json_of(r)["rows"].size(), 2u);
  r = http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=csv");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(line_count(r.body), 3) << r.body;

  r = http.request("GET", "/v1/jobs?tag=raw&state=succeeded");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json_of(r)["total"], 1) << r.body;

  r = http.request("DELETE", "/v1/jobs/" + std::to_string(id), {}, bearer(daemon_->token()));
  EXPECT_EQ(r.status, 409) << r.body;
  expect_error_body(r);
}

TEST_F(http_backbone, auth_401_without_and_403_with_a_wrong_token) {
  http_client http(daemon_->port());
  const std::string body = R"({"kind":"idle","spec":{}})";
  auto r = http.request("POST", "/v1/jobs", body);
  EXPECT_EQ(r.status, 401) << r.body;
  expect_error_body(r);
  r = http.request("POST", "/v1/jobs", body, bearer("not-the-token"));
  EXPECT_EQ(r.status, 403) << r.body;
  expect_error_body(r);
  r = http.request("DELETE", "/v1/jobs/1", {}, {{"Authorization", "Basic Zm9vOmJhcg=="}});
  EXPECT_EQ(r.status, 401) << r.body;
  // Reads stay open by default.
  EXPECT_EQ(http.request("GET", "/v1/jobs").status, 200);
}

TEST_F(http_backbone, oversized_body_is_413) {
  http_client http(daemon_->port());
  const std::size_t declared = 2 * 1024 * 1024;
  std::string req = "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + daemon_->token() +
                    "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(declared) + "\r\n\r\n";
  req += std::string(4096, ' ');
  const auto r = http.send_raw(req);
  EXPECT_EQ(r.status, 413) << r.body;
  expect_error_body(r);
}

TEST_F(http_backbone, malformed_requests_are_400) {
  {
    http_client http(daemon_->port());
    const auto r = http.send_raw("THIS IS NOT HTTP\r\n\r\n");
    EXPECT_EQ(r.status, 400) << r.body;
  }
  {
    http_client http(daemon_->port());
    const auto r = http.send_raw("GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
    EXPECT_EQ(r.status, 400) << r.body;
  }
  http_client http(daemon_->port());
  auto r = http.request("POST", "/v1/jobs", "{not json", bearer(daemon_->token()));
  EXPECT_EQ(r.status, 400) << r.body;
  expect_error_body(r);
  r = http.request("POST", "/v1/jobs", R"({"kind":"idle","spec":{"duration_s":"long"}})", bearer(daemon_->token()));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(json_of(r)["error"]["field"], "spec.duration_s") << r.body;
  r = http.request("GET", "/v1/jobs?limit=-3");
  EXPECT_EQ(r.status, 400) << r.body;
  r = http.request("GET", "/v1/jobs/abc");
  EXPECT_TRUE(r.status == 400 || r.status == 404) << r.status;
  r = http.request("GET", "/v1/jobs/987654");
  EXPECT_EQ(r.status, 404) << r.body;
  expect_error_body(r);
}

}  // namespace
}  // namespace jetperf::test
