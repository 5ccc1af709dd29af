#include <jetperf/api/error_mapping.hpp>
#include <jetperf/api/http_error.hpp>
#include <jetperf/common/errors.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

struct mapping_case {
  std::exception_ptr error;
  int status;
  const char* code;
  nlohmann::json field;
};

TEST(error_mapping, maps_each_exception_type) {
  const mapping_case cases[] = {
      {std::make_exception_ptr(validation_error("spec.repeats", "bad")), 400, "invalid_field", "spec.repeats"},
      {std::make_exception_ptr(validation_error("kind", "bad", "unknown_kind")), 400, "unknown_kind", "kind"},
      {std::make_exception_ptr(not_found("no job 4", "id")), 404, "not_found", "id"},
      {std::make_exception_ptr(not_found("nothing")), 404, "not_found", nullptr},
      {std::make_exception_ptr(conflict("finished")), 409, "conflict", nullptr},
      {std::make_exception_ptr(unavailable("full")), 503, "unavailable", nullptr},
      {std::make_exception_ptr(platform_error("nvpmodel failed")), 502, "platform_error", nullptr},
      {std::make_exception_ptr(store_error("disk I/O error at /x")), 500, "store_error", nullptr},
      {std::make_exception_ptr(corrupt_record("corrupt_job", "job 3 is damaged", "id")), 500, "corrupt_job", "id"},
      {std::make_exception_ptr(api::http_error(415, "unsupported_media_type", "json only")), 415,
       "unsupported_media_type", nullptr},
      {std::make_exception_ptr(std::runtime_error("secret detail")), 500, "internal", nullptr},
      {std::make_exception_ptr(std::out_of_range("vector")), 500, "internal", nullptr},
      {std::make_exception_ptr(42), 500, "internal", nullptr},
  };
  for (const auto& c : cases) {
    const auto res = api::error_response(c.error);
    EXPECT_EQ(res.status, c.status) << c.code;
    EXPECT_EQ(res.content_type, "application/json");
    const auto j = nlohmann::json::parse(res.body);
    ASSERT_TRUE(j.contains("error"));
    EXPECT_EQ(j["error"].size(), 3u);
    EXPECT_EQ(j["error"]["code"], c.code);
    EXPECT_EQ(j["error"]["field"], c.field) << c.code;
    EXPECT_TRUE(j["error"]["message"].is_string());
  }
}

TEST(error_mapping, hides_internal_detail) {
  auto j = nlohmann::json::parse(api::error_response(std::make_exception_ptr(std::runtime_error("secret"))).body);
  EXPECT_EQ(j["error"]["message"].get<std::string>().find("secret"), std::string::npos);
  j = nlohmann::json::parse(api::error_response(std::make_exception_ptr(store_error("/var/lib/x.db locked"))).body);
  EXPECT_EQ(j["error"]["message"].get<std::string>().find("/var/lib"), std::string::npos);
}

// A full disk is the client's to know: 507, naming the database's file system, without the SQL.
TEST(error_mapping, a_full_disk_is_507_naming_the_databases_file_system) {
  const auto res = api::error_response(std::make_exception_ptr(
      disk_full("disk_full: the file system holding /var/lib/jetperf/jetperf.db is full (SQLite step failed for "
                "'INSERT INTO jobs ...' on /var/lib/jetperf/jetperf.db: database or disk is full)")));
  EXPECT_EQ(res.status, 507);
  const auto j = nlohmann::json::parse(res.body);
  EXPECT_EQ(j["error"]["code"], "insufficient_storage");
  EXPECT_EQ(j["error"]["message"], "disk_full: the file system holding /var/lib/jetperf/jetperf.db is full: nothing was "
                                   "stored; free space there and retry");
}

TEST(error_mapping, a_corrupt_record_says_which_record_and_what_is_wrong) {
  // Unlike a storage failure, the detail is about the client's own record, not the storage.
  const auto j = nlohmann::json::parse(
      api::error_response(std::make_exception_ptr(corrupt_record("corrupt_job", "job 3: spec_json is not valid JSON", "id")))
          .body);
  EXPECT_EQ(j["error"]["message"], "job 3: spec_json is not valid JSON");
}

TEST(error_mapping, keeps_http_error_headers_and_survives_bad_utf8) {
  auto res = api::error_response(std::make_exception_ptr(api::http_error(405, "method_not_allowed", "no", {{"Allow", "GET"}})));
  ASSERT_EQ(res.headers.size(), 1u);
  EXPECT_EQ(res.headers[0].first, "Allow");
  res = api::error_response(std::make_exception_ptr(validation_error("q\xff", "bad \xfe value")));
  EXPECT_EQ(res.status, 400);
  EXPECT_NO_THROW(nlohmann::json::parse(res.body));
}

}  // namespace
}  // namespace jetperf::test
