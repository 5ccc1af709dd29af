// Actual responses of every route checked against the schemas that proto/openapi.json declares
// for that (path, method, status).
#include "api_fixture.hpp"
#include "json_schema_check.hpp"

namespace jetperf::test {
namespace {

class contract_test : public api_fixture {
 protected:
  // The JSON schema the contract declares for a response, following components/responses refs.
  nlohmann::json response_schema(const std::string& pattern, const std::string& method, int status) {
    const auto& op = doc_["paths"].at(pattern).at(method);
    const auto code = std::to_string(status);
    if (!op["responses"].contains(code)) {
      ADD_FAILURE() << method << " " << pattern << " does not declare status " << code;
      return nullptr;
    }
    auto response = op["responses"][code];
    if (response.contains("$ref")) {
      const std::string ref = response["$ref"];
      const std::string prefix = "#/components/responses/";
      response = doc_["components"]["responses"].at(ref.substr(prefix.size()));
    }
    return response.at("content").at("application/json").at("schema");
  }

  void expect_conforms(const std::string& method, const std::string& target, const std::string& pattern,
                       int status, const std::string& body = {}) {
    const auto res = call(method, target, body);
    ASSERT_EQ(res.status, status) << method << " " << target << ": " << res.body;
    std::string lower = method;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto schema = response_schema(pattern, lower, status);
    ASSERT_FALSE(schema.is_null());
    const auto violations = schema_violations(doc_, schema, json_of(res));
    std::string all;
    for (const auto& v : violations) all += v + "\n";
    EXPECT_TRUE(violations.empty()) << method << " " << target << " -> " << status << "\n" << all << res.body;
  }

  nlohmann::json doc_ = contract();
};

TEST_F(contract_test, the_checker_catches_violations) {
  const auto job_schema = component_schema(doc_, "Job");
  EXPECT_FALSE(schema_violations(doc_, job_schema, nlohmann::json::object()).empty());
  const auto error_schema = component_schema(doc_, "Error");
  EXPECT_TRUE(schema_violations(doc_, error_schema, {{"error", {{"code", "x"}, {"message", "m"}, {"field", nullptr}}}}).empty());
  EXPECT_FALSE(schema_violations(doc_, error_schema, {{"error", {{"code", "x"}, {"message", "m"}}}}).empty());
  EXPECT_FALSE(
      schema_violations(doc_, error_schema, {{"error", {{"code", "x"}, {"message", "m"}, {"field", nullptr}}}, {"x", 1}})
          .empty());
  EXPECT_FALSE(schema_violations(doc_, error_schema, {{"error", {{"code", 1}, {"message", "m"}, {"field", nullptr}}}}).empty());
  EXPECT_FALSE(schema_violations(doc_, component_schema(doc_, "JobState"), "done").empty());
  EXPECT_FALSE(schema_violations(doc_, {{"$ref", "#/components/schemas/Nope"}}, 1).empty());
  EXPECT_FALSE(schema_violations(doc_, {{"type", "integer"}}, 1.5).empty());
  EXPECT_FALSE(schema_violations(doc_, {{"type", "array"}, {"items", {{"type", "string"}}}}, {"a", 2}).empty());
}

TEST_F(contract_test, document_is_openapi_3_with_every_schema) {
  EXPECT_EQ(doc_["openapi"].get<std::string>().substr(0, 2), "3.");
  for (const char* name : {"Job", "JobList", "Results", "Error", "Health", "Time", "JobSubmit", "DryRun"})
    EXPECT_TRUE(doc_["components"]["schemas"].contains(name)) << name;
  // Every $ref in the document resolves.
  std::vector<const nlohmann::json*> stack{&doc_};
  int refs = 0;
  while (!stack.empty()) {
    const auto* node = stack.back();
    stack.pop_back();
    if (node->is_object()) {
      if (auto it = node->find("$ref"); it != node->end()) {
        ++refs;
        const std::string ref = *it;
        const auto slash = ref.rfind('/');
        const auto section = ref.substr(0, slash);
        const auto name = ref.substr(slash + 1);
        const auto& where = section == "#/components/schemas" ? doc_["components"]["schemas"] : doc_["components"]["responses"];
        EXPECT_TRUE(where.contains(name)) << ref;
      }
      for (const auto& kv : node->items()) stack.push_back(&kv.value());
    } else if (node->is_array()) {
      for (const auto& v : *node) stack.push_back(&v);
    }
  }
  EXPECT_GT(refs, 10);
}

TEST_F(contract_test, system_routes_conform) {
  expect_conforms("GET", "/v1/health", "/v1/health", 200);
  expect_conforms("GET", "/v1/time", "/v1/time", 200);
  expect_conforms("GET", "/v1/openapi.json", "/v1/openapi.json", 200);
  expect_conforms("GET", "/v1/time?x=1", "/v1/time", 400);
}

TEST_F(contract_test, job_routes_conform) {
  expect_conforms("POST", "/v1/jobs", "/v1/jobs", 201, R"({"kind":"idle","spec":{"repeats":2},"tags":["t"]})");
  expect_conforms("POST", "/v1/jobs", "/v1/jobs", 200, R"({"kind":"idle","dry_run":true})");
  expect_conforms("POST", "/v1/jobs", "/v1/jobs", 400, R"({"kind":"idle","spec":{"repeats":0}})");
  expect_conforms("GET", "/v1/jobs", "/v1/jobs", 200);
  expect_conforms("GET", "/v1/jobs?limit=0", "/v1/jobs", 400);
  expect_conforms("GET", "/v1/jobs/1", "/v1/jobs/{id}", 200);
  expect_conforms("GET", "/v1/jobs/2", "/v1/jobs/{id}", 404);
  expect_conforms("GET", "/v1/jobs/x", "/v1/jobs/{id}", 400);
  expect_conforms("POST", "/v1/jobs/1/resume", "/v1/jobs/{id}/resume", 409);
  expect_conforms("DELETE", "/v1/jobs/1", "/v1/jobs/{id}", 200);
  expect_conforms("DELETE", "/v1/jobs/1", "/v1/jobs/{id}", 409);
  expect_conforms("GET", "/v1/jobs", "/v1/jobs", 200);  // now with a cancelled job with an error text
}

TEST_F(contract_test, auth_and_body_errors_conform) {
  auto check = [&](const api::http_response& res, int status, const char* pattern, const char* method) {
    ASSERT_EQ(res.status, status) << res.body;
    const auto violations = schema_violations(doc_, response_schema(pattern, method, status), json_of(res));
    EXPECT_TRUE(violations.empty()) << (violations.empty() ? "" : violations[0]);
  };
  check(router().handle(request("POST", "/v1/jobs", R"({"kind":"idle"})", false)), 401, "/v1/jobs", "post");
  auto wrong = request("POST", "/v1/jobs", R"({"kind":"idle"})", false);
  wrong.headers["authorization"] = "Bearer no";
  check(router().handle(wrong), 403, "/v1/jobs", "post");
  check(router().handle(request("POST", "/v1/jobs", R"({"kind":"idle"})", true, "text/plain")), 415, "/v1/jobs", "post");
}

TEST_F(contract_test, results_conform) {
  const auto id = submit_idle({{"repeats", 2}});
  store::job_store js(db_);
  store::point_record p;
  p.job_id = id;
  p.status = "ok";
  p.params = {{"repeat", 0}};
  p.metrics = {{"duration_s", 0.5}, {"power_w", nullptr}, {"samples", 0}};
  js.add_point(p);
  expect_conforms("GET", "/v1/jobs/" + std::to_string(id) + "/results", "/v1/jobs/{id}/results", 200);
  expect_conforms("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=pdf", "/v1/jobs/{id}/results", 400);
  expect_conforms("GET", "/v1/jobs/99/results", "/v1/jobs/{id}/results", 404);
  expect_conforms("GET", "/v1/jobs/99/events", "/v1/jobs/{id}/events", 404);
}

TEST_F(contract_test, kinds_conform) {
  expect_conforms("GET", "/v1/kinds", "/v1/kinds", 200);
  expect_conforms("GET", "/v1/kinds/idle", "/v1/kinds/{kind}", 200);
  expect_conforms("GET", "/v1/kinds/colour", "/v1/kinds/{kind}", 404);
  expect_conforms("GET", "/v1/kinds?x=1", "/v1/kinds", 400);
}

}  // namespace
}  // namespace jetperf::test
