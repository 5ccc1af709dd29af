// Request bodies are read strictly: a number beyond a double and a key given twice are refused
// with 400, naming where they are; valid JSON reads as nlohmann reads it.
#include <jetperf/api/strict_json.hpp>

#include "api_fixture.hpp"

#include <jetperf/common/errors.hpp>

namespace jetperf::test {
namespace {

using nlohmann::json;

struct refused {
  std::string code, field, message;
};

refused refusal_of(const std::string& text) {
  try {
    api::parse_strict_json(text);
  } catch (const validation_error& e) {
    return {e.code(), e.field(), e.what()};
  }
  ADD_FAILURE() << "accepted " << text;
  return {};
}

TEST(strict_json, valid_json_reads_as_nlohmann_reads_it) {
  const std::string text = R"({"kind":"gemm","spec":{"sizes":["1:9:2",64,{"m":1,"n":2,"k":3}],"x":[[],{},[[1.5e3,-2,18446744073709551615]]],
                               "s":"caf\u00e9","b":[true,false,null]},"tags":[]})";
  EXPECT_EQ(api::parse_strict_json(text), json::parse(text));
  EXPECT_EQ(api::parse_strict_json("[1, [2, [3]], {\"a\": {\"a\": 1}}]"), json::parse("[1, [2, [3]], {\"a\": {\"a\": 1}}]"));
  EXPECT_EQ(api::parse_strict_json("7"), json(7));
  // The same key in different objects is no duplicate.
  EXPECT_EQ(api::parse_strict_json(R"([{"a":1},{"a":2}])"), json::parse(R"([{"a":1},{"a":2}])"));
}

TEST(strict_json, a_number_beyond_a_double_names_where_it_is) {
  auto r = refusal_of(R"({"kind":"idle","spec":{"duration_s":1e999}})");
  EXPECT_EQ(r.code, "malformed_json");
  EXPECT_EQ(r.field, "spec.duration_s");
  EXPECT_NE(r.message.find("the number 1e999 at spec.duration_s is out of range"), std::string::npos) << r.message;
  r = refusal_of(R"({"a":[{"b":[1, -1e999]}]})");
  EXPECT_EQ(r.field, "a[0].b[1]");
  EXPECT_NE(r.message.find("-1e999"), std::string::npos) << r.message;
  // An integer too long for any integer type is read as a double, and overflows the same way.
  r = refusal_of("{\"n\":" + std::string(400, '9') + "}");
  EXPECT_EQ(r.code, "malformed_json");
  EXPECT_EQ(r.field, "n");
  r = refusal_of("1e999");
  EXPECT_EQ(r.code, "malformed_json");
  EXPECT_EQ(r.field, "");
}

TEST(strict_json, a_key_given_twice_is_named_with_its_path) {
  auto r = refusal_of(R"({"kind":"idle","kind":"gemm"})");
  EXPECT_EQ(r.code, "duplicate_key");
  EXPECT_EQ(r.field, "kind");
  EXPECT_NE(r.message.find("duplicate key \"kind\" in the body"), std::string::npos) << r.message;
  r = refusal_of(R"({"spec":{"networks":[{"name":"a"},{"name":"b","layers":[],"name":"c"}]}})");
  EXPECT_EQ(r.field, "spec.networks[1].name");
  EXPECT_NE(r.message.find("in spec.networks[1]"), std::string::npos) << r.message;
  // Escapes are decoded first: "\u0061" is "a".
  EXPECT_EQ(refusal_of(R"({"a":1,"\u0061":2})").field, "a");
}

TEST(strict_json, syntax_errors_stay_malformed_json_about_the_whole_body) {
  for (const std::string text : {R"({"kind":)", "", R"({"kind":"idle"} x)", "[1,]", "{\"a\" 1}"}) {
    const auto r = refusal_of(text);
    EXPECT_EQ(r.code, "malformed_json") << text;
    EXPECT_EQ(r.field, "") << text;
    EXPECT_NE(r.message.find("the body is not valid JSON"), std::string::npos) << r.message;
  }
}

using strict_body_test = api_fixture;

TEST_F(strict_body_test, out_of_range_numbers_and_duplicate_keys_answer_400_naming_the_field) {
  const auto expect = [&](const std::string& method, const std::string& target, const std::string& body,
                          const std::string& code, const std::string& field) {
    const auto res = call(method, target, body);
    EXPECT_EQ(res.status, 400) << body << " -> " << res.body;
    const auto e = json_of(res)["error"];
    EXPECT_EQ(e["code"], code) << res.body;
    EXPECT_EQ(e["field"], field) << res.body;
  };
  expect("POST", "/v1/jobs", R"({"kind":"idle","spec":{"duration_s":1e999}})", "malformed_json", "spec.duration_s");
  expect("POST", "/v1/jobs", R"({"kind":"idle","spec":{"duration_s":-1e999}})", "malformed_json", "spec.duration_s");
  expect("POST", "/v1/jobs", R"({"kind":"idle","tags":["a",1e999]})", "malformed_json", "tags[1]");
  expect("POST", "/v1/jobs", R"({"kind":"idle","dry_run":true,"spec":{"repeats":2,"repeats":3}})", "duplicate_key",
         "spec.repeats");
  expect("POST", "/v1/jobs", R"({"kind":"idle","kind":"idle"})", "duplicate_key", "kind");
  EXPECT_EQ(job_count(), 0);
}

}  // namespace
}  // namespace jetperf::test
