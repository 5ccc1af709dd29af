// Responses of the board and telemetry routes checked against the schemas proto/openapi.json
// declares for them.
#include <jetperf/api/sample_batcher.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/store/sample_store.hpp>

#include "board_fixture.hpp"
#include "json_schema_check.hpp"

namespace jetperf::test {
namespace {

class one_channel_telemetry final : public api::telemetry_view {
 public:
  std::vector<telemetry::channel_info> channels() const override {
    return {{"power.total", "W", telemetry::channel_kind::power, "sim"},
            {"temp.CPU", "C", telemetry::channel_kind::temperature, "sim"}};
  }
  std::vector<api::channel_reading> latest() const override { return {{7.5, 10}, {std::nullopt, 0}}; }
  std::optional<int> total_power_channel() const override { return 0; }
  telemetry::sampler_health health() const override { return {}; }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const override {
    if (from_ns > 500'000 || to_ns < 500'000) return {};
    return {{0, 500'000, 7.5}, {1, 500'000, 40.0}};
  }
};

class board_contract_test : public board_fixture {
 protected:
  void SetUp() override {
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = k_token;
    s.board = board_.get();
    s.telemetry = &view_;
    s.samples = &samples_;
    router_ = std::make_unique<api::router>(std::move(s));
  }

  void expect_conforms(const std::string& method, const std::string& target, const std::string& pattern, int status,
                       const std::string& body = {}) {
    const auto res = call(method, target, body);
    ASSERT_EQ(res.status, status) << method << " " << target << ": " << res.body;
    std::string lower = method;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto& op = doc_["paths"].at(pattern).at(lower);
    const auto code = std::to_string(status);
    ASSERT_TRUE(op["responses"].contains(code)) << method << " " << pattern << " does not declare " << code;
    auto response = op["responses"][code];
    if (response.contains("$ref")) {
      const std::string ref = response["$ref"];
      response = doc_["components"]["responses"].at(ref.substr(ref.rfind('/') + 1));
    }
    const auto schema = response.at("content").at("application/json").at("schema");
    const auto violations = schema_violations(doc_, schema, json_of(res));
    std::string all;
    for (const auto& v : violations) all += v + "\n";
    EXPECT_TRUE(violations.empty()) << method << " " << target << " -> " << status << "\n" << all << res.body;
  }

  nlohmann::json doc_ = contract();
  one_channel_telemetry view_;
  store::sample_store samples_{db_};
};

TEST_F(board_contract_test, board_routes_conform) {
  for (const char* name : {"Board", "PowerMode", "PowerModeSet", "Clocks", "ClocksSet", "Telemetry", "Samples"})
    EXPECT_TRUE(doc_["components"]["schemas"].contains(name)) << name;
  expect_conforms("GET", "/v1/board", "/v1/board", 200);
  expect_conforms("GET", "/v1/power-mode", "/v1/power-mode", 200);
  expect_conforms("PUT", "/v1/power-mode", "/v1/power-mode", 200, R"({"id":3})");
  expect_conforms("PUT", "/v1/power-mode", "/v1/power-mode", 400, R"({"id":7})");
  expect_conforms("PUT", "/v1/power-mode", "/v1/power-mode", 409, R"({"id":1})");
  expect_conforms("GET", "/v1/clocks", "/v1/clocks", 200);
  expect_conforms("PUT", "/v1/clocks", "/v1/clocks", 200, R"({"gpu":"max","emc":"min"})");
  expect_conforms("PUT", "/v1/clocks", "/v1/clocks", 400, R"({"gpu":5})");
  expect_conforms("POST", "/v1/clocks/restore", "/v1/clocks/restore", 200);
  write_file(bin_.file("error"), "NVPM ERROR: nope\n");
  expect_conforms("PUT", "/v1/power-mode", "/v1/power-mode", 502, R"({"id":3})");
}

TEST_F(board_contract_test, telemetry_routes_conform) {
  expect_conforms("GET", "/v1/telemetry", "/v1/telemetry", 200);
  expect_conforms("GET", "/v1/telemetry/stream?interval_ms=1", "/v1/telemetry/stream", 400);
  expect_conforms("GET", "/v1/telemetry/stream?samples=most", "/v1/telemetry/stream", 400);
  // A samples event's data, with samples and without.
  api::sample_batcher batcher(1'000'000);
  for (const auto& batch : {batcher.next(view_, 1'000'000), batcher.next(view_, 3'000'000)}) {
    const auto violations = schema_violations(doc_, component_schema(doc_, "TelemetrySamples"), batch);
    EXPECT_TRUE(violations.empty()) << violations.front() << "\n" << batch;
  }
  const auto id = submit_idle();
  samples_.insert(id, {{samples_.channel_id("power.total", "W", "sim"), 5, 1.0}});
  expect_conforms("GET", "/v1/jobs/" + std::to_string(id) + "/samples", "/v1/jobs/{id}/samples", 200);
  expect_conforms("GET", "/v1/jobs/" + std::to_string(id) + "/samples?channel=x", "/v1/jobs/{id}/samples", 400);
  expect_conforms("GET", "/v1/jobs/42/samples", "/v1/jobs/{id}/samples", 404);
}

TEST_F(board_contract_test, unavailable_board_conforms) {
  make_router();
  expect_conforms("GET", "/v1/board", "/v1/board", 503);
  expect_conforms("PUT", "/v1/clocks", "/v1/clocks", 503, R"({"gpu":"max"})");
  expect_conforms("GET", "/v1/telemetry", "/v1/telemetry", 503);
}

}  // namespace
}  // namespace jetperf::test
