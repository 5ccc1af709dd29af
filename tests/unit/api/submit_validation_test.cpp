#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

struct bad_submission {
  std::string name;
  std::string body;
  int status;
  nlohmann::json field;  // null when the error is about the whole body
  std::string content_type = "application/json";
};

std::vector<bad_submission> bad_submissions() {
  const std::string long_tag(65, 'a');
  std::string many_tags = "[";
  for (int i = 0; i < 33; ++i) many_tags += std::string(i ? "," : "") + "\"t" + std::to_string(i) + "\"";
  many_tags += "]";
  std::string deep = std::string(100, '[') + std::string(100, ']');
  std::string huge = R"({"kind":"idle","spec":{},"tags":[],"pad":")" + std::string(1024 * 1024, 'x') + "\"}";
  return {
      {"malformed_json", R"({"kind":)", 400, nullptr},
      {"empty_body", "", 400, nullptr},
      {"trailing_garbage", R"({"kind":"idle"} x)", 400, nullptr},
      {"text_plain", R"({"kind":"idle"})", 415, nullptr, "text/plain"},
      {"no_content_type", R"({"kind":"idle"})", 415, nullptr, ""},
      {"json_suffix_type", R"({"kind":"idle"})", 415, nullptr, "application/jsonx"},
      {"body_is_array", R"([{"kind":"idle"}])", 400, nullptr},
      {"body_is_string", R"("idle")", 400, nullptr},
      {"too_deep", R"({"kind":"idle","spec":{"x":)" + deep + "}}", 400, nullptr},
      {"too_large", huge, 413, nullptr},
      {"unknown_top_level", R"({"kind":"idle","colour":"red"})", 400, "colour"},
      {"unknown_top_level_dry_run", R"({"kind":"idle","dry_run":true,"priority":1})", 400, "priority"},
      {"missing_kind", R"({"spec":{}})", 400, "kind"},
      {"kind_number", R"({"kind":5})", 400, "kind"},
      {"kind_null", R"({"kind":null})", 400, "kind"},
      {"kind_unknown", R"({"kind":"gemmm"})", 400, "kind"},
      {"kind_empty", R"({"kind":""})", 400, "kind"},
      {"spec_array", R"({"kind":"idle","spec":[1]})", 400, "spec"},
      {"spec_string", R"({"kind":"idle","spec":"duration_s=1"})", 400, "spec"},
      {"spec_null", R"({"kind":"idle","spec":null})", 400, "spec"},
      {"spec_unknown_field", R"({"kind":"idle","spec":{"durations":1}})", 400, "spec.durations"},
      {"duration_string", R"({"kind":"idle","spec":{"duration_s":"1"}})", 400, "spec.duration_s"},
      {"duration_bool", R"({"kind":"idle","spec":{"duration_s":true}})", 400, "spec.duration_s"},
      {"duration_negative", R"({"kind":"idle","spec":{"duration_s":-1}})", 400, "spec.duration_s"},
      {"duration_zero", R"({"kind":"idle","spec":{"duration_s":0}})", 400, "spec.duration_s"},
      {"duration_too_large", R"({"kind":"idle","spec":{"duration_s":3600.5}})", 400, "spec.duration_s"},
      {"repeats_zero", R"({"kind":"idle","spec":{"repeats":0}})", 400, "spec.repeats"},
      {"repeats_float", R"({"kind":"idle","spec":{"repeats":1.5}})", 400, "spec.repeats"},
      {"repeats_too_many", R"({"kind":"idle","spec":{"repeats":10001}})", 400, "spec.repeats"},
      {"repeats_huge", R"({"kind":"idle","spec":{"repeats":1e30}})", 400, "spec.repeats"},
      {"repeats_uint64_max", R"({"kind":"idle","spec":{"repeats":18446744073709551615}})", 400, "spec.repeats"},
      {"repeats_string", R"({"kind":"idle","spec":{"repeats":"2"}})", 400, "spec.repeats"},
      {"tags_not_array", R"({"kind":"idle","tags":"a"})", 400, "tags"},
      {"tags_object", R"({"kind":"idle","tags":{"a":1}})", 400, "tags"},
      {"tag_too_long", R"({"kind":"idle","tags":[")" + long_tag + "\"]}", 400, "tags[0]"},
      {"tag_bad_chars", R"({"kind":"idle","tags":["ok","a b"]})", 400, "tags[1]"},
      {"tag_slash", R"({"kind":"idle","tags":["ok","ok2","a/b"]})", 400, "tags[2]"},
      {"tag_empty", R"({"kind":"idle","tags":[""]})", 400, "tags[0]"},
      {"tag_number", R"({"kind":"idle","tags":[1]})", 400, "tags[0]"},
      {"tag_unicode", R"({"kind":"idle","tags":["caf\u00e9"]})", 400, "tags[0]"},
      {"too_many_tags", R"({"kind":"idle","tags":)" + many_tags + "}", 400, "tags"},
      {"dry_run_not_bool", R"({"kind":"idle","dry_run":"yes"})", 400, "dry_run"},
      {"number_overflow", R"({"kind":"idle","spec":{"duration_s":1e999}})", 400, "spec.duration_s"},
      {"negative_number_overflow", R"({"kind":"idle","tags":[-1e999]})", 400, "tags[0]"},
      {"duplicate_key", R"({"kind":"idle","spec":{},"spec":{"duration_s":1}})", 400, "spec"},
      {"duplicate_nested_key", R"({"kind":"idle","spec":{"duration_s":1,"duration_s":2}})", 400, "spec.duration_s"},
  };
}

class submit_validation_test : public api_fixture, public ::testing::WithParamInterface<bad_submission> {};

TEST_P(submit_validation_test, is_refused_with_status_and_field_and_creates_nothing) {
  const auto& c = GetParam();
  std::vector<std::string> published;
  auto sub = hub_.subscribe("jobs", [&](const std::string& e, const std::string&) {
    published.push_back(e);
    return true;
  });
  auto req = request("POST", "/v1/jobs", c.body, true, c.content_type);
  if (c.content_type.empty()) req.headers.erase("content-type");
  const auto res = router().handle(req);
  EXPECT_EQ(res.status, c.status) << res.body;
  const auto j = json_of(res);
  EXPECT_EQ(j["error"]["field"], c.field) << res.body;
  EXPECT_FALSE(j["error"]["code"].get<std::string>().empty());
  EXPECT_EQ(job_count(), 0);
  EXPECT_EQ(service_->queued_count(), 0u);
  EXPECT_TRUE(published.empty());
}

INSTANTIATE_TEST_SUITE_P(table, submit_validation_test, ::testing::ValuesIn(bad_submissions()),
                         [](const ::testing::TestParamInfo<bad_submission>& info) { return info.param.name; });

TEST(submit_validation_table, has_at_least_25_cases) { EXPECT_GE(bad_submissions().size(), 25u); }

using submit_codes_test = api_fixture;

TEST_F(submit_codes_test, error_codes_say_what_went_wrong) {
  auto code = [&](const std::string& body) {
    return json_of(call("POST", "/v1/jobs", body))["error"]["code"].get<std::string>();
  };
  EXPECT_EQ(code(R"({"kind":)"), "malformed_json");
  EXPECT_EQ(code(R"([])"), "invalid_body");
  EXPECT_EQ(code(R"({"kind":"idle","x":1})"), "unknown_field");
  EXPECT_EQ(code(R"({"spec":{}})"), "missing_field");
  EXPECT_EQ(code(R"({"kind":"nope"})"), "unknown_kind");
  EXPECT_EQ(code(R"({"kind":"idle","spec":{"repeats":0}})"), "out_of_range");
}

}  // namespace
}  // namespace jetperf::test
