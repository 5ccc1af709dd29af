#include <jetperf/api/auth.hpp>
#include <jetperf/jobs/job_state.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

TEST(constant_time_equals, compares_every_byte_and_length) {
  EXPECT_TRUE(api::constant_time_equals("abc", "abc"));
  EXPECT_TRUE(api::constant_time_equals("", ""));
  EXPECT_FALSE(api::constant_time_equals("abc", "abd"));
  EXPECT_FALSE(api::constant_time_equals("abc", "bbc"));
  EXPECT_FALSE(api::constant_time_equals("abc", "ab"));
  EXPECT_FALSE(api::constant_time_equals("ab", "abc"));
  EXPECT_FALSE(api::constant_time_equals("abc", ""));
  // A prefix padded with NULs must not equal the shorter string.
  EXPECT_FALSE(api::constant_time_equals(std::string("ab\0", 3), "ab"));
  EXPECT_TRUE(api::constant_time_equals(std::string("a\0b", 3), std::string("a\0b", 3)));
  // Differences in the high bit count.
  EXPECT_FALSE(api::constant_time_equals("\x80", "\x00"));
}

TEST(bearer_token, parses_the_scheme_case_insensitively) {
  api::http_request r;
  EXPECT_EQ(api::bearer_token(r), "");
  r.headers["authorization"] = "Bearer abc";
  EXPECT_EQ(api::bearer_token(r), "abc");
  r.headers["authorization"] = "bearer   abc  ";
  EXPECT_EQ(api::bearer_token(r), "abc");
  for (const char* bad : {"Basic abc", "Bearer", "Bearer ", "Bearerabc", "Bearer a b", "Token abc", "Bearer\tabc"}) {
    r.headers["authorization"] = bad;
    EXPECT_EQ(api::bearer_token(r), "") << bad;
  }
}

using auth_test = api_fixture;

TEST_F(auth_test, mutating_requests_need_the_token) {
  const std::string body = R"({"kind":"idle"})";
  auto missing = router().handle(request("POST", "/v1/jobs", body, /*with_token=*/false));
  EXPECT_EQ(missing.status, 401);
  EXPECT_EQ(header_of(missing, "WWW-Authenticate").substr(0, 6), "Bearer");
  EXPECT_EQ(json_of(missing)["error"]["code"], "unauthorized");

  auto malformed_req = request("POST", "/v1/jobs", body, false);
  malformed_req.headers["authorization"] = "Basic dXNlcjpwYXNz";
  auto malformed = router().handle(malformed_req);
  EXPECT_EQ(malformed.status, 401);
  EXPECT_NE(header_of(malformed, "WWW-Authenticate").find("invalid_request"), std::string::npos);

  auto wrong_req = request("POST", "/v1/jobs", body, false);
  wrong_req.headers["authorization"] = "Bearer " + k_token + "x";
  auto wrong = router().handle(wrong_req);
  EXPECT_EQ(wrong.status, 403);
  EXPECT_EQ(json_of(wrong)["error"]["code"], "forbidden");

  auto prefix_req = request("POST", "/v1/jobs", body, false);
  prefix_req.headers["authorization"] = "Bearer " + k_token.substr(0, 5);
  EXPECT_EQ(router().handle(prefix_req).status, 403);
  EXPECT_EQ(job_count(), 0);

  EXPECT_EQ(router().handle(request("POST", "/v1/jobs", body, true)).status, 201);
  EXPECT_EQ(job_count(), 1);
}

TEST_F(auth_test, delete_needs_the_token_and_changes_nothing_without_it) {
  const auto id = submit_idle();
  auto res = router().handle(request("DELETE", "/v1/jobs/" + std::to_string(id), {}, false));
  EXPECT_EQ(res.status, 401);
  EXPECT_EQ(service_->get(id).state, jobs::job_state::queued);
}

TEST_F(auth_test, auth_comes_before_body_checks) {
  auto res = router().handle(request("POST", "/v1/jobs", "not json", false, "text/plain"));
  EXPECT_EQ(res.status, 401);
}

TEST_F(auth_test, reads_are_open_unless_required) {
  EXPECT_EQ(router().handle(request("GET", "/v1/jobs", {}, false)).status, 200);
  make_router(/*require_for_reads=*/true);
  EXPECT_EQ(router().handle(request("GET", "/v1/jobs", {}, false)).status, 401);
  EXPECT_EQ(router().handle(request("GET", "/v1/time", {}, false)).status, 401);
  EXPECT_EQ(router().handle(request("GET", "/v1/openapi.json", {}, false)).status, 401);
  auto wrong = request("GET", "/v1/jobs", {}, false);
  wrong.headers["authorization"] = "Bearer nope";
  EXPECT_EQ(router().handle(wrong).status, 403);
  EXPECT_EQ(router().handle(request("GET", "/v1/jobs", {}, true)).status, 200);
  // Health never needs it.
  EXPECT_EQ(router().handle(request("GET", "/v1/health", {}, false)).status, 200);
}

TEST_F(auth_test, an_empty_configured_token_opens_nothing) {
  api::services s;
  s.jobs = service_.get();
  s.hub = &hub_;
  api::router open_router(s);
  auto req = request("POST", "/v1/jobs", R"({"kind":"idle"})", false);
  EXPECT_EQ(open_router.handle(req).status, 401);
  req.headers["authorization"] = "Bearer anything";
  EXPECT_EQ(open_router.handle(req).status, 403);
  EXPECT_EQ(job_count(), 0);
}

}  // namespace
}  // namespace jetperf::test
