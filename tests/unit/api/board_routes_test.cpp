// GET /v1/board, GET/PUT /v1/power-mode, GET/PUT /v1/clocks, POST /v1/clocks/restore over a real
// board_controller on a fixture Orin tree: what the files hold before and after each request.
#include <chrono>
#include <thread>

#include "board_fixture.hpp"

namespace jetperf::test {
namespace {

class board_routes_test : public board_fixture {
 protected:
  void SetUp() override { make_board_router(); }

  static void expect_error(const api::http_response& res, int status, const std::string& code,
                           const nlohmann::json& field, const std::string& in_message = {}) {
    ASSERT_EQ(res.status, status) << res.body;
    const auto e = json_of(res)["error"];
    EXPECT_EQ(e["code"], code) << res.body;
    EXPECT_EQ(e["field"], field) << res.body;
    if (!in_message.empty()) {
      EXPECT_NE(e["message"].get<std::string>().find(in_message), std::string::npos) << res.body;
    }
  }
};

TEST_F(board_routes_test, board_describes_the_fixture_with_identity) {
  auto res = call("GET", "/v1/board");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  EXPECT_EQ(j["family"], "t234");
  EXPECT_EQ(j["simulated"], false);
  EXPECT_EQ(j["board"], "jetson");
  ASSERT_EQ(j["modes"].size(), 4u);
  EXPECT_EQ(j["modes"][3]["name"], "MODE_50W");
  EXPECT_EQ(j["gpu"]["available_hz"].size(), 13u);
  EXPECT_EQ(j["fan"]["pwm"], 120);

  make_board_router([] { return nlohmann::json{{"simulated", true}, {"board", "sim:orin-agx"}}; });
  j = json_of(call("GET", "/v1/board"));
  EXPECT_EQ(j["simulated"], true);
  EXPECT_EQ(j["board"], "sim:orin-agx");
}

TEST_F(board_routes_test, power_mode_lists_modes) {
  auto res = call("GET", "/v1/power-mode");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  EXPECT_EQ(j["id"], 2);
  EXPECT_EQ(j["name"], "MODE_30W");
  EXPECT_EQ(j["default"], 2);
  ASSERT_EQ(j["modes"].size(), 4u);
  EXPECT_EQ(j["modes"][0]["id"], 0);
  EXPECT_EQ(j["modes"][0]["name"], "MAXN");
  EXPECT_EQ(j["modes"][1]["reboot_needed_from_default"], true);
}

TEST_F(board_routes_test, set_power_mode_by_id_and_name_then_restore) {
  const auto before = tree();
  auto res = call("PUT", "/v1/power-mode", R"({"id":3})");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["id"], 3);
  EXPECT_EQ(json_of(res)["name"], "MODE_50W");
  EXPECT_EQ(nvpmodel_mode(), "3\n");
  EXPECT_EQ(json_of(call("GET", "/v1/power-mode"))["id"], 3);

  res = call("PUT", "/v1/power-mode", R"({"name":"MODE_30W"})");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["id"], 2);
  EXPECT_EQ(nvpmodel_mode(), "2\n");

  call("PUT", "/v1/power-mode", R"({"id":3})");
  res = call("POST", "/v1/clocks/restore");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["power_mode"], 2);
  EXPECT_EQ(json_of(res)["armed"], false);
  EXPECT_EQ(nvpmodel_mode(), "2\n");
  EXPECT_EQ(tree(), before);
}

TEST_F(board_routes_test, unknown_mode_is_400_listing_valid_modes) {
  const auto before = tree();
  expect_error(call("PUT", "/v1/power-mode", R"({"id":9})"), 400, "invalid_field", "id", "3 MODE_50W");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":-1})"), 400, "invalid_field", "id", "0 MAXN");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":"3"})"), 400, "invalid_field", "id");
  expect_error(call("PUT", "/v1/power-mode", R"({"name":"TURBO"})"), 400, "invalid_field", "name", "1 MODE_15W");
  expect_error(call("PUT", "/v1/power-mode", R"({"name":3})"), 400, "invalid_field", "name");
  expect_error(call("PUT", "/v1/power-mode", R"({})"), 400, "missing_field", "id");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":3,"name":"MODE_50W"})"), 400, "invalid_field", "id");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":3,"force":"yes"})"), 400, "invalid_field", "force");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":3,"turbo":true})"), 400, "unknown_field", "turbo");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":3)"), 400, "malformed_json", nullptr);
  expect_error(call("PUT", "/v1/power-mode", R"({"id":1e999})"), 400, "malformed_json", "id", "out of range");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":3,"id":0})"), 400, "duplicate_key", "id");
  expect_error(call("PUT", "/v1/power-mode", R"([3])"), 400, "invalid_body", nullptr);
  EXPECT_EQ(router().handle(request("PUT", "/v1/power-mode", R"({"id":3})", true, "text/plain")).status, 415);
  EXPECT_EQ(nvpmodel_mode(), "2\n");
  EXPECT_EQ(tree(), before);
}

// A forced switch rebooted the board and jetperfd's start then put the old mode back: the API
// refuses a reboot-needing mode, forced or not, pointing at jobs that allow the reboot.
TEST_F(board_routes_test, a_reboot_mode_is_refused_forced_or_not) {
  const auto before = tree();
  expect_error(call("PUT", "/v1/power-mode", R"({"id":1})"), 409, "conflict", "id", "TPC_PG_MASK 240 -> 248");
  // The refusal names what does switch it, and no flag that does not.
  const auto advice = json_of(call("PUT", "/v1/power-mode", R"({"name":"MAXN"})"))["error"]["message"].get<std::string>();
  EXPECT_NE(advice.find("--power-mode MAXN --allow-reboot"), std::string::npos) << advice;
  EXPECT_NE(advice.find("nvpmodel -m 0"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("set force"), std::string::npos) << advice;
  expect_error(call("PUT", "/v1/power-mode", R"({"name":"MAXN"})"), 409, "conflict", "name", "reboot");
  expect_error(call("PUT", "/v1/power-mode", R"({"id":1,"force":true})"), 400, "reboot_required", "force", "--allow-reboot");
  EXPECT_EQ(nvpmodel_mode(), "2\n");
  EXPECT_EQ(tree(), before);
  // A mode that needs no reboot switches, force or not.
  auto res = call("PUT", "/v1/power-mode", R"({"id":3,"force":true})");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["id"], 3);
  EXPECT_EQ(nvpmodel_mode(), "3\n");
}

TEST_F(board_routes_test, nvpm_error_is_502_and_leaves_the_board_as_it_was) {
  const auto before = tree();
  write_file(bin_.file("error"), "NVPM ERROR: Error opening /sys/devices/gpu.0/tpc_pg_mask: 13\n");
  const auto res = call("PUT", "/v1/power-mode", R"({"id":3})");
  expect_error(res, 502, "platform_error", nullptr, "Error opening /sys/devices/gpu.0/tpc_pg_mask");
  EXPECT_EQ(nvpmodel_mode(), "2\n");
  EXPECT_EQ(tree(), before);
}

TEST_F(board_routes_test, clocks_lock_read_back_and_restore) {
  const auto before = tree();
  auto res = call("GET", "/v1/clocks");
  ASSERT_EQ(res.status, 200) << res.body;
  auto j = json_of(res);
  // What the mode in effect (MODE_30W, GPU cap 624.75 MHz) allows: "max" is its cap.
  EXPECT_EQ(j["available"]["gpu_hz"].size(), 6u);
  EXPECT_EQ(j["available"]["gpu_hz"].back(), 624750000);
  EXPECT_EQ(j["available"]["cpu_khz"].back(), 2201600);
  EXPECT_EQ(j["available"]["emc_hz"].size(), 4u);
  EXPECT_EQ(j["gpu_min_hz"], 114750000);
  EXPECT_EQ(j["gpu_max_hz"], 1300500000);
  EXPECT_EQ(j["armed"], false);

  res = call("PUT", "/v1/clocks", R"({"gpu":"max","cpu":"max","emc":2133000000})");
  ASSERT_EQ(res.status, 200) << res.body;
  j = json_of(res);
  EXPECT_EQ(j["gpu_freq_hz"], 624750000);
  EXPECT_EQ(j["gpu_min_hz"], 624750000);
  EXPECT_EQ(j["gpu_max_hz"], 624750000);
  EXPECT_EQ(j["cpu_freq_khz"], 2201600);
  EXPECT_EQ(j["emc_freq_hz"], 2133000000LL);
  EXPECT_EQ(j["emc_locked"], true);
  EXPECT_EQ(j["armed"], true);
  EXPECT_EQ(file(std::string(gpu_dir) + "/min_freq"), "624750000\n");
  EXPECT_EQ(file(std::string(gpu_dir) + "/max_freq"), "624750000\n");
  EXPECT_EQ(file(std::string(cpu0_dir) + "/scaling_min_freq"), "2201600\n");
  EXPECT_EQ(json_of(call("GET", "/v1/clocks"))["gpu_freq_hz"], 624750000);

  // A second change keeps the first snapshot: restore goes back to the original files.
  ASSERT_EQ(call("PUT", "/v1/clocks", R"({"gpu":"min"})").status, 200);
  EXPECT_EQ(file(std::string(gpu_dir) + "/max_freq"), "114750000\n");
  res = call("POST", "/v1/clocks/restore", "{}");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(json_of(res)["armed"], false);
  EXPECT_EQ(json_of(res)["gpu_max_hz"], 1300500000);
  EXPECT_EQ(tree(), before);
  // Nothing armed: restore is a no-op that still answers the clocks.
  EXPECT_EQ(call("POST", "/v1/clocks/restore").status, 200);
  EXPECT_EQ(tree(), before);
}

TEST_F(board_routes_test, clock_values_not_offered_are_400_naming_the_field) {
  const auto before = tree();
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":828750001})"), 400, "not_offered", "gpu", "828750000");
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":624750000,"cpu":12345})"), 400, "not_offered", "cpu", "1497600");
  // Offered, but above the cap of the mode in effect: `clocks lock --gpu 1300500000` in MODE_30W.
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":1300500000})"), 400, "above_cap", "gpu",
               "above the cap of power mode 2 (MODE_30W), 624750000");
  expect_error(call("PUT", "/v1/clocks", R"({"emc":1})"), 400, "not_offered", "emc", "3199000000");
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":"fast"})"), 400, "invalid_field", "gpu");
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":1.5})"), 400, "invalid_field", "gpu");
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":"max","vic":1})"), 400, "unknown_field", "vic", "gpu, cpu, emc");
  expect_error(call("PUT", "/v1/clocks", R"({})"), 400, "missing_field", "body");
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":)"), 400, "malformed_json", nullptr);
  expect_error(call("PUT", "/v1/clocks", R"({"gpu":"max","gpu":"min"})"), 400, "duplicate_key", "gpu");
  expect_error(call("PUT", "/v1/clocks", R"("max")"), 400, "invalid_body", nullptr);
  expect_error(call("POST", "/v1/clocks/restore", R"({"all":true})"), 400, "unknown_field", "all");
  EXPECT_EQ(tree(), before);
  EXPECT_EQ(json_of(call("GET", "/v1/clocks"))["armed"], false);
}

TEST_F(board_routes_test, changes_need_the_token) {
  const auto before = tree();
  EXPECT_EQ(router().handle(request("PUT", "/v1/clocks", R"({"gpu":"max"})", false)).status, 401);
  EXPECT_EQ(router().handle(request("PUT", "/v1/power-mode", R"({"id":3})", false)).status, 401);
  EXPECT_EQ(router().handle(request("POST", "/v1/clocks/restore", "", false)).status, 401);
  auto wrong = request("PUT", "/v1/clocks", R"({"gpu":"max"})", false);
  wrong.headers["authorization"] = "Bearer nope";
  EXPECT_EQ(router().handle(wrong).status, 403);
  // Reads follow the read rule: open by default.
  EXPECT_EQ(router().handle(request("GET", "/v1/clocks", "", false)).status, 200);
  EXPECT_EQ(tree(), before);
  EXPECT_EQ(nvpmodel_mode(), "2\n");
}

TEST_F(board_routes_test, changes_while_a_job_runs_are_409) {
  service_->start();
  const auto id = submit_idle({{"duration_s", 60}});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!service_->running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(service_->running(), id);
  const auto before = tree();
  for (auto [method, target, body] : {std::make_tuple("PUT", "/v1/clocks", R"({"gpu":"max"})"),
                                      std::make_tuple("PUT", "/v1/power-mode", R"({"id":3})"),
                                      std::make_tuple("POST", "/v1/clocks/restore", "")}) {
    const auto res = call(method, target, body);
    expect_error(res, 409, "conflict", nullptr, "is running");
    EXPECT_NE(json_of(res)["error"]["message"].get<std::string>().find("job " + std::to_string(id)), std::string::npos);
  }
  // Reads still work while the job runs.
  EXPECT_EQ(call("GET", "/v1/clocks").status, 200);
  EXPECT_EQ(tree(), before);
  EXPECT_EQ(nvpmodel_mode(), "2\n");
  service_->cancel(id);
  service_->stop();
}

TEST_F(board_routes_test, without_board_control_everything_is_503) {
  make_router();  // services.board stays null
  for (auto [method, target, body] : {std::make_tuple("GET", "/v1/board", ""), std::make_tuple("GET", "/v1/power-mode", ""),
                                      std::make_tuple("GET", "/v1/clocks", ""),
                                      std::make_tuple("PUT", "/v1/clocks", R"({"gpu":"max"})"),
                                      std::make_tuple("PUT", "/v1/power-mode", R"({"id":3})"),
                                      std::make_tuple("POST", "/v1/clocks/restore", "")}) {
    const auto res = call(method, target, body);
    ASSERT_EQ(res.status, 503) << method << " " << target << ": " << res.body;
    EXPECT_EQ(json_of(res), (nlohmann::json{{"error", {{"code", "unavailable"},
                                                         {"message", "no board control on this host"},
                                                         {"field", nullptr}}}}));
  }
}

}  // namespace
}  // namespace jetperf::test
