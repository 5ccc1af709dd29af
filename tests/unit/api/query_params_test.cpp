#include <jetperf/api/json_body.hpp>
#include <jetperf/api/query_params.hpp>
#include <jetperf/api/route_table.hpp>
#include <jetperf/common/errors.hpp>

#include <gtest/gtest.h>

namespace jetperf::test {
namespace {

TEST(query_params, splits_and_decodes) {
  auto [path, query] = api::split_target("/v1/jobs?tag=a%3Ab&kind=x+y&flag");
  EXPECT_EQ(path, "/v1/jobs");
  api::query_params q(query);
  EXPECT_EQ(q.get("tag"), "a:b");
  EXPECT_EQ(q.get("kind"), "x y");
  EXPECT_EQ(q.get("flag"), "");
  EXPECT_FALSE(q.get("none"));
  EXPECT_EQ(api::split_target("/x").second, "");
}

TEST(query_params, rejects_bad_escapes_and_repeats) {
  for (const char* bad : {"a=%", "a=%4", "a=%G1", "a=1&a=2"}) {
    try {
      api::query_params q(bad);
      ADD_FAILURE() << bad;
    } catch (const validation_error& e) {
      EXPECT_EQ(e.field(), "a") << bad;
    }
  }
}

TEST(query_params, parse_int64_is_strict) {
  EXPECT_EQ(api::parse_int64("0"), 0);
  EXPECT_EQ(api::parse_int64("-12"), -12);
  EXPECT_EQ(api::parse_int64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(api::parse_int64("-9223372036854775808"), INT64_MIN);
  for (const char* bad : {"", "-", "+1", " 1", "1 ", "1e3", "0x1", "9223372036854775808", "99999999999999999999"})
    EXPECT_FALSE(api::parse_int64(bad)) << bad;
}

TEST(json_body, media_types) {
  EXPECT_TRUE(api::is_json_media_type("application/json"));
  EXPECT_TRUE(api::is_json_media_type(" Application/JSON ; charset=UTF-8"));
  EXPECT_FALSE(api::is_json_media_type("application/jsonp"));
  EXPECT_FALSE(api::is_json_media_type("text/json"));
  EXPECT_FALSE(api::is_json_media_type(""));
}

TEST(route_table, matches_patterns_and_reports_allowed_methods) {
  api::route_table t;
  auto h = [](const api::route_request&) { return api::http_response{}; };
  t.add("GET", "/v1/jobs/{id}", h);
  t.add("DELETE", "/v1/jobs/{id}", h);
  t.add("GET", "/v1/jobs/{id}/results", h);
  EXPECT_THROW(t.add("GET", "/v1/jobs/{id}", h), std::invalid_argument);
  EXPECT_THROW(t.add("GET", "v1", h), std::invalid_argument);
  auto m = t.match("GET", "/v1/jobs/7");
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.params.at("id"), "7");
  m = t.match("PUT", "/v1/jobs/7");
  EXPECT_FALSE(m.found);
  EXPECT_EQ(m.allowed, (std::vector<std::string>{"GET", "HEAD", "DELETE"}));
  m = t.match("HEAD", "/v1/jobs/7");  // a GET route answers HEAD
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.found->method, "GET");
  m = t.match("GET", "/v1/jobs//results");
  EXPECT_FALSE(m.found);
  EXPECT_TRUE(m.allowed.empty());
  EXPECT_FALSE(t.match("GET", "/v1/jobs/7/results/x").found);
}

}  // namespace
}  // namespace jetperf::test
