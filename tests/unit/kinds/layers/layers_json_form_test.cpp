// The typed layers spec and point against their JSON form as the JSON code of d467ff4 wrote it
// (tests/fixtures/layers_json_form.json, recorded from normalize_layers_spec, expand_layers_spec,
// the estimate and the dry run's skips before they were typed): every stored spec, point, estimate
// and refusal the same, byte for byte.
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/json_workload.hpp"

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>

#include "../spec_json.hpp"
#include <jetperf/kinds/layers/layers_kind.hpp>
#include <jetperf/kinds/layers/layers_results.hpp>
#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#include "support/test_paths.hpp"

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

json normalize_layers_spec(const json& spec, const jetperf::platform::board_offer& off) {
  return jetperf::test::normalized_json<layers_spec>("layers", spec, off);
}
std::vector<json> expand_layers_spec(const json& stored) { return jetperf::test::expanded_json<layers_spec>(stored); }
json upgraded(const json& stored, std::int64_t from) {
  return jetperf::to_json(layers_spec::upgrade(jetperf::record_of(stored), from));
}


// The board the fixture was recorded against.
jetperf::platform::board_offer offered() {
  jetperf::platform::board_offer o;
  o.power_modes = {{0, "MAXN", {}}, {1, "15W", {}}};
  o.gpu_freqs_hz = {300000000, 900000000};
  o.cpu_freqs_khz = {1200000, 2200000};
  o.sensor_samples = {1, 4, 16};
  o.has_cuda_device = false;
  o.memory_bytes = 8LL << 30;
  return o;
}

const json& fixture() {
  static const json f = json::parse(std::ifstream(jetperf::test::fixtures_dir() + "/layers_json_form.json"));
  return f;
}

// The stored spec of a case: what its request normalized to, or a legacy one as the runner reads
// it (a job stored before spec versions is upgraded from version 0).
json stored_of(const json& c) {
  return c.contains("normalized") ? c["normalized"] : upgraded(c["stored"], 0);
}

jetperf::test::json_workload layers_workload() {
  return jetperf::test::json_workload(make_layers_kind(
      [](const std::string& device, std::string* why) -> std::unique_ptr<jetperf::workloads::layer_backend> {
        if (device == "cpu") return jetperf::workloads::make_reference_layer_backend();
        *why = "no CUDA device (test)";
        return nullptr;
      }));
}

// The cost model the fixture's estimates were recorded with; `costs` gets each run asked for.
jetperf::measure::estimate_context estimate_ctx(json* costs) {
  jetperf::measure::estimate_context ctx;
  ctx.sensor_update_s = 0.02;
  ctx.run = [costs](const jetperf::measure::run_cost& c) {
    costs->push_back({c.cls, c.work, c.clock_hz ? json(*c.clock_hz) : json(), c.prior_s});
    return jetperf::measure::run_time{c.prior_s * 1.5 + 1e-5, 0.3};
  };
  return ctx;
}

std::string refusal(const json& spec) {
  try {
    normalize_layers_spec(spec, offered());
  } catch (const jetperf::validation_error& e) {
    return e.field() + " | " + e.what() + " | " + e.code();
  }
  return "accepted";
}

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
  return out;
}

}  // namespace

TEST(layers_json_form, a_request_parses_to_the_stored_spec_it_always_did) {
  for (const auto& c : fixture()["cases"]) {
    if (!c.contains("spec")) continue;
    // dump(): 5 and 5.0 compare equal as JSON, and are not the same stored spec.
    EXPECT_EQ(normalize_layers_spec(c["spec"], offered()).dump(), c["normalized"].dump()) << c["name"];
    EXPECT_EQ(layers_workload()->normalize(c["spec"], offered()).dump(), c["normalized"].dump()) << c["name"];
  }
}

TEST(layers_json_form, a_stored_spec_parses_and_reads_back_to_itself) {
  for (const auto& c : fixture()["cases"]) {
    if (!c.contains("normalized")) continue;
    const auto& stored = c["normalized"];
    EXPECT_EQ(normalize_layers_spec(stored, offered()).dump(), stored.dump()) << c["name"];
    EXPECT_EQ(jetperf::to_json(jetperf::test::stored_of<layers_spec>(stored).to_record()).dump(), stored.dump()) << c["name"];
  }
}

TEST(layers_json_form, the_points_are_those_the_json_code_expanded) {
  for (const auto& c : fixture()["cases"]) {
    if (c["name"] == "legacy_points") continue;  // points edited after expanding
    const auto& want = c["points"];
    const auto typed = expand(jetperf::test::stored_of<layers_spec>(stored_of(c)));
    ASSERT_EQ(typed.size(), want.size()) << c["name"];
    for (std::size_t i = 0; i < typed.size(); ++i) {
      const auto got = jetperf::to_json(typed[i].to_record());
      ASSERT_EQ(keys_of(got), keys_of(want[i])) << c["name"] << " point " << i;
      ASSERT_EQ(got.dump(), want[i].dump()) << c["name"] << " point " << i;
      ASSERT_EQ(jetperf::to_json(layers_point::of(jetperf::record_of(want[i])).to_record()).dump(), want[i].dump())
          << c["name"] << " point " << i;
      // The typed label keys the end-to-end row's layer sum as the rows' label does.
      ASSERT_EQ(variant_label(typed[i]), variant_label(jetperf::record_of(want[i]))) << c["name"] << " point " << i;
    }
    EXPECT_EQ(json(expand_layers_spec(stored_of(c))), want) << c["name"];
    auto w = layers_workload();
    json planned = json::array();
    const auto plan = w->plan(stored_of(c));
    for (const auto& p : plan->points()) planned.push_back(jetperf::to_json(p));
    EXPECT_EQ(planned, want) << c["name"];
  }
}

// The estimates as recorded, to the last few bits: an arm64 build contracts a * b + c into one
// fused multiply-add where x86-64 rounds twice (one ulp apart in a few of them).
void expect_estimates(const std::vector<double>& got, const json& want, const json& name) {
  ASSERT_EQ(got.size(), want.size()) << name;
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i].get<double>(), 1e-12 * std::fabs(want[i].get<double>())) << name << " point " << i;
}

TEST(layers_json_form, estimates_run_costs_and_dry_run_skips_are_as_recorded) {
  for (const auto& c : fixture()["cases"]) {
    auto w = layers_workload();
    const auto stored = stored_of(c);
    const auto points = c["points"].get<std::vector<json>>();
    json costs = json::array();
    expect_estimates(w->estimate_points_s(stored, points, estimate_ctx(&costs)), c["estimate_s"], c["name"]);
    EXPECT_EQ(costs.dump(), c["run_costs"].dump()) << c["name"];
    EXPECT_EQ(json(w->foreseen_skips(stored, points)), c["skips"]) << c["name"];
    if (c["name"] == "legacy_points") continue;
    // The plan holds the typed points: the same answers without reading them back.
    const auto plan = w->plan(stored);
    json plan_costs = json::array();
    expect_estimates(plan->estimate_points_s(estimate_ctx(&plan_costs)), c["estimate_s"], c["name"]);
    EXPECT_EQ(json(plan->foreseen_skips()), c["skips"]) << c["name"];
  }
}

TEST(layers_json_form, a_bad_spec_is_refused_with_the_same_field_message_and_code) {
  for (const auto& r : fixture()["refusals"]) EXPECT_EQ(refusal(r["spec"]), r["error"]) << r["spec"].dump();
}

TEST(layers_json_form, a_point_stored_before_input_size_ran_a_zoo_network_at_224_and_a_user_network_as_it_is) {
  for (const auto& c : fixture()["cases"]) {
    if (c["name"] != "legacy_points") continue;
    ASSERT_FALSE(c["points"].empty());
    for (const auto& stored : c["points"]) {
      ASSERT_FALSE(stored.contains("input_size"));
      ASSERT_FALSE(stored.contains("repeat"));
      const auto p = layers_point::of(jetperf::record_of(stored));
      EXPECT_EQ(p.input_size, stored["network"] == "tiny" ? std::nullopt : std::optional<std::int64_t>(224))
          << stored.dump();
      EXPECT_EQ(p.repeat, 0);
      // Read back, it is today's point with those two keys.
      auto want = stored;
      want["input_size"] = p.input_size ? json(224) : json();
      want["repeat"] = 0;
      EXPECT_EQ(jetperf::to_json(p.to_record()), want);
    }
  }
  // Even a network whose published resolution is another (efficientnet_b1: 240).
  json legacy = {{"network", "efficientnet_b1"}, {"device", "cpu"}, {"granularity", "block"}, {"layer_index", 0},
                 {"layer_name", "features.0"}, {"layer_type", "conv"}, {"batch", 1}, {"dtype", "float"}};
  EXPECT_EQ(layers_point::of(jetperf::record_of(legacy)).input_size, 224);
}
