// GET /v1/kinds: each kind's declared spec fields and columns, the same declarations its spec is
// parsed with and its results are written through.
#include <jetperf/kinds/command/command_kind.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>
#include <jetperf/kinds/layers/layers_kind.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

class kinds_routes : public api_fixture {
 protected:
  kinds_routes() {
    registry_.add(kinds::make_gemm_kind());
    registry_.add(kinds::make_layers_kind());
  }

  nlohmann::json kind(const std::string& name) {
    auto res = call("GET", "/v1/kinds/" + name);
    EXPECT_EQ(res.status, 200) << res.body;
    return json_of(res);
  }
};

std::vector<std::string> names_of(const nlohmann::json& list) {
  std::vector<std::string> out;
  for (const auto& c : list) out.push_back(c.at("name").get<std::string>());
  return out;
}

TEST_F(kinds_routes, lists_every_registered_kind_with_its_declarations) {
  auto res = call("GET", "/v1/kinds");
  ASSERT_EQ(res.status, 200) << res.body;
  const auto j = json_of(res);
  std::vector<std::string> kinds;
  for (const auto& k : j["kinds"]) kinds.push_back(k["kind"]);
  EXPECT_EQ(kinds, (std::vector<std::string>{"gemm", "idle", "layers"}));
  for (const auto& k : j["kinds"]) {
    EXPECT_FALSE(k["description"].get<std::string>().empty()) << k["kind"];
    EXPECT_FALSE(k["spec"]["fields"].empty()) << k["kind"];
    EXPECT_EQ(k["columns"][0]["name"], "index");
    EXPECT_EQ(k["columns"].back()["name"], "implausible");
    EXPECT_EQ(k["rail_columns"], "rail_<NAME>_w");
  }
}

TEST_F(kinds_routes, columns_are_the_kinds_table_and_the_layers_defaults_are_its_headline) {
  const auto layers = kind("layers");
  std::vector<std::string> shown;
  for (const auto& c : layers["columns"])
    if (c["shown"].get<bool>()) shown.push_back(c["name"]);
  // layer_resolution: an in_context row's power may be its merged neighbours' too, and says so.
  EXPECT_EQ(shown, (std::vector<std::string>{"status", "network", "layer_name", "layer_type", "latency_mean_s",
                                             "power_w", "energy_j", "layer_resolution"}));
  const auto names = names_of(kind("gemm")["columns"]);
  std::vector<std::string> expected;
  for (const auto& c : output_columns(registry_.get("gemm").columns(), {})) expected.push_back(c.name);
  EXPECT_EQ(names, expected);
  const auto& latency = layers["columns"][7];
  EXPECT_EQ(latency, (nlohmann::json{{"name", "latency_mean_s"}, {"type", "number"}, {"role", "metric"},
                                     {"unit", "s"}, {"description", "mean latency of one run"}, {"shown", true}}));
  EXPECT_EQ(layers["formats"], (nlohmann::json{"json", "csv", "dnnstats"}));
}

// The summary's tables as declared, so a client renders them without knowing the kind.
TEST_F(kinds_routes, serves_each_kinds_summary_tables) {
  const auto gemm = kind("gemm")["summary_tables"];
  ASSERT_EQ(gemm.size(), 2u) << gemm.dump();
  EXPECT_EQ(gemm[0]["rows"], "best_per_dtype_size");
  EXPECT_EQ(gemm[1]["rows"], "repeats");
  EXPECT_EQ(gemm[0]["columns"][9], (nlohmann::json{{"header", "gflops_per_w"}, {"path", "gflops_per_w"}, {"unit", "GFLOP/s/W"},
                                                   {"format", "value"}, {"source", "row"}}));
  EXPECT_EQ(gemm[1]["columns"][9]["path"], "gflops.mean");
  EXPECT_EQ(kind("idle")["summary_tables"], nlohmann::json::array());
  const auto col = [](const char* header, const char* path, const char* unit) {
    return nlohmann::json{{"header", header}, {"path", path}, {"unit", unit}, {"format", "value"}, {"source", "row"}};
  };
  const nlohmann::json networks = {
      {"name", "networks"},
      {"title", ""},
      {"rows", "networks"},
      {"nested", ""},
      {"columns",
       {col("network", "network", ""), col("device", "device", ""), col("setting", "setting", ""),
        {{"header", "layers"}, {"path", "layers_measured"}, {"unit", ""}, {"format", "fraction"}, {"source", "row"},
         {"of", "layers"}},
        col("end_to_end_s", "end_to_end_latency_s", "s"), col("layers/e2e", "layers_over_end_to_end", ""),
        col("layer_energy_j", "layer_energy_sum_j", "J"), col("end_to_end_j", "end_to_end_energy_j", "J")}},
      {"empty_text", "networks: -"}};
  EXPECT_EQ(kind("layers")["summary_tables"], nlohmann::json::array({networks}));

  registry_.add(kinds::make_command_kind({}));
  const auto tables = kind("command")["summary_tables"];
  ASSERT_EQ(tables.size(), 2u) << tables.dump(1);
  EXPECT_EQ(tables[0]["name"], "runs");
  EXPECT_EQ(tables[0]["rows"], "settings");
  EXPECT_EQ(tables[0]["empty_text"], "runs: -");
  EXPECT_EQ(tables[0]["columns"][0], (nlohmann::json{{"header", "setting"}, {"path", "setting"}, {"unit", ""},
                                                     {"format", "setting"}, {"source", "row"}}));
  EXPECT_EQ(tables[0]["columns"][2], col("wall_median_s", "wall_median_s", "s"));
  EXPECT_EQ(tables[1]["name"], "phases");
  EXPECT_EQ(tables[1]["title"], "phases (mean per run)");
  EXPECT_EQ(tables[1]["rows"], "settings");
  EXPECT_EQ(tables[1]["nested"], "phases");
  EXPECT_EQ(tables[1]["empty_text"], "");
  EXPECT_EQ(tables[1]["columns"][0], (nlohmann::json{{"header", "setting"}, {"path", "setting"}, {"unit", ""},
                                                     {"format", "setting"}, {"source", "parent"}}));
  EXPECT_EQ(tables[1]["columns"][1],
            (nlohmann::json{{"header", "phase"}, {"path", ""}, {"unit", ""}, {"format", "value"}, {"source", "key"}}));
  EXPECT_EQ(tables[1]["columns"][4], col("energy_mean_j", "energy_mean_j", "J"));
}

// A default is written once: what /v1/kinds declares is what normalize fills in.
TEST_F(kinds_routes, declared_defaults_are_the_ones_normalize_fills_in) {
  for (const std::string name : {"idle", "gemm", "layers"}) {
    nlohmann::json spec = nlohmann::json::object();
    if (name == "layers") spec["models"] = {"alexnet"};
    platform::board_offer no_cuda;
    no_cuda.has_cuda_device = false;
    const auto normalized = to_json(registry_.get(name).normalize(record_of(spec), no_cuda));
    int checked = 0;
    const auto declared = kind(name);
    for (const auto& f : declared["spec"]["fields"]) {
      if (f["default"].is_null() || f["name"] == "sizes") continue;
      ASSERT_TRUE(normalized.contains(f["name"].get<std::string>())) << name << "." << f["name"];
      EXPECT_EQ(normalized[f["name"].get<std::string>()], f["default"]) << name << "." << f["name"];
      ++checked;
    }
    EXPECT_GE(checked, 2) << name;
  }
  const auto gemm = kind("gemm");
  nlohmann::json threads, allow_reboot;
  for (const auto& f : gemm["spec"]["fields"]) {
    if (f["name"] == "threads") threads = f;
    if (f["name"] == "allow_reboot") allow_reboot = f;
  }
  // The board axes every sweeping kind shares, allow_reboot among them, with their description.
  EXPECT_EQ(allow_reboot["type"], "boolean");
  EXPECT_EQ(allow_reboot["default"], false);
  EXPECT_NE(allow_reboot["description"].get<std::string>().find("reboot the board"), std::string::npos);
  EXPECT_EQ(threads, (nlohmann::json{{"name", "threads"}, {"type", "integer"}, {"default", 0},
                                     {"description", "CPU backend threads (0 = the library's default)"},
                                     {"min", 0}, {"max", 1024}}));
}

TEST_F(kinds_routes, unknown_kind_is_404_naming_the_known_ones) {
  auto res = call("GET", "/v1/kinds/colour");
  EXPECT_EQ(res.status, 404);
  const auto j = json_of(res);
  EXPECT_EQ(j["error"]["field"], "kind");
  EXPECT_NE(j["error"]["message"].get<std::string>().find("gemm, idle, layers"), std::string::npos);
  EXPECT_EQ(call("GET", "/v1/kinds?x=1").status, 400);
}

}  // namespace
}  // namespace jetperf::test
