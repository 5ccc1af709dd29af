// The multi_dnn spec: mappings in the seed's form (and every way one can be wrong, each refused
// naming the field), the seed's generator (deterministic, its case classes, its device odds) and
// the points a spec expands to.
#include <jetperf/kinds/multi_dnn/multi_dnn_spec.hpp>

#include <gtest/gtest.h>

#include <algorithm>

#include <jetperf/common/errors.hpp>
#include <jetperf/config.hpp>

#include "../spec_json.hpp"

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

multi_dnn_spec parsed(const json& spec, const jetperf::platform::board_offer& offered) {
  return multi_dnn_spec::parse(jetperf::test::spec_record("multi_dnn", spec), offered);
}
jetperf::cell mapping_cell(const char* text) { return jetperf::cell_of(json::parse(text)); }
json normalized(const json& spec, const jetperf::platform::board_offer& offered) {
  return jetperf::test::normalized_json<multi_dnn_spec>("multi_dnn", spec, offered);
}

jetperf::platform::board_offer board(bool cuda = true) {
  jetperf::platform::board_offer o;
  o.power_modes = {{0, "MAXN", {}}, {1, "15W", {}}};
  o.cpu_freqs_khz = {1200000, 2200000};
  o.has_cuda_device = cuda;
  return o;
}

std::string refusal(const json& spec, const jetperf::platform::board_offer& offered = board()) {
  try {
    parsed(spec, offered);
  } catch (const jetperf::validation_error& e) {
    return e.field() + " | " + e.what();
  }
  return "accepted";
}

std::string field_only(const json& spec, const jetperf::platform::board_offer& offered = board()) {
  const auto r = refusal(spec, offered);
  return r.substr(0, r.find(" | "));
}

json one(const json& mapping) { return {{"mappings", json::array({mapping})}}; }

// What a mapping may name with a GPU, whatever this build has: the parser's own tests give it
// the rules, so they are the same in a build without CUDA.
mapping_rules rules() {
  auto r = multi_dnn_rules(board(true));
  if (std::find(r.devices.begin(), r.devices.end(), "cuda") == r.devices.end()) r.devices.push_back("cuda");
  r.missing_cuda.clear();
  return r;
}

bool build_has_cuda() { return JETPERF_HAS_CUDA && JETPERF_HAS_CUDNN; }

// A spec's refusal of one mapping, by the parser with rules() (the spec's own path adds only the
// build's devices): "<field> | <message>".
std::string mapping_refusal(const json& m) {
  try {
    parse_mapping(jetperf::cell_of(m), rules(), "spec.mappings[0]");
  } catch (const jetperf::validation_error& e) {
    return e.field() + " | " + e.what();
  }
  return "accepted";
}

}  // namespace

TEST(multi_dnn_mapping, the_seeds_example_parses_with_its_stages_and_class) {
  // The seed's example workload: four networks whole on the GPU.
  const auto m = parse_mapping(mapping_cell(R"({"resnet50": {"22": "cuda"}, "mnasnet1_0": {"19": "cuda"},
                                              "alexnet": {"21": "cuda"}, "mobilenet_v2": {"21": "cuda"}})"),
                               rules(), "spec.mappings[0]");
  ASSERT_EQ(m.networks.size(), 4u);
  EXPECT_EQ(m.networks[0].network, "alexnet");  // name order
  EXPECT_EQ(m.networks[3].stages[0].split, 22);
  EXPECT_EQ(mapping_class(m), "B");
  // A split: blocks [0, 8) on the CPU, [8, 22) on the GPU; the last index is the block count.
  const auto d = parse_mapping(mapping_cell(R"({"resnet50": {"22": "cuda", "8": "cpu"}, "alexnet": {"21": "cpu"}})"),
                               rules(), "m");
  EXPECT_EQ(mapping_class(d), "D");
  const auto& r50 = d.networks[1];
  ASSERT_EQ(r50.stages.size(), 2u);
  EXPECT_EQ(r50.stages[0].split, 8);  // sorted by index, not as the keys sort as text
  EXPECT_EQ(r50.first_block(1), 8);
  EXPECT_EQ(r50.last_block(1), 22);
  EXPECT_EQ(mapping_key(d), "alexnet:21=cpu;resnet50:8=cpu,22=cuda");
  EXPECT_EQ(jetperf::to_ordered_json(mapping_record(d)).dump(), R"({"alexnet":{"21":"cpu"},"resnet50":{"8":"cpu","22":"cuda"}})");
  EXPECT_EQ(mapping_class(parse_mapping(mapping_cell(R"({"alexnet": {"21": "cpu"}})"), rules(), "m")), "A");
  EXPECT_EQ(mapping_class(parse_mapping(mapping_cell(R"({"alexnet": {"21": "cpu"}, "resnet18": {"14": "cuda"}})"),
                                        rules(), "m")),
            "C");
  // A cut on one device is a pipeline of two stages, and a split all the same.
  EXPECT_EQ(mapping_class(parse_mapping(mapping_cell(R"({"alexnet": {"21": "cpu"}, "resnet18": {"5": "cpu", "14": "cpu"}})"),
                                        rules(), "m")),
            "D");
}

TEST(multi_dnn_mapping, bad_mappings_are_refused_naming_the_network_and_index) {
  struct bad {
    json mapping;
    std::string field;
    std::string says;
  };
  const std::vector<bad> cases = {
      {json::array({1}), "spec.mappings[0]", "a mapping is an object"},
      {json::object(), "spec.mappings[0]", "names no network"},
      {{{"resnet51", {{"22", "cpu"}}}}, "spec.mappings[0].resnet51", "unknown network 'resnet51'"},
      {{{"resnet50", "cpu"}}, "spec.mappings[0].resnet50", "must map split indices to devices"},
      {{{"resnet50", json::object()}}, "spec.mappings[0].resnet50", "must map split indices"},
      {{{"resnet50", {{"x", "cpu"}}}}, "spec.mappings[0].resnet50.x", "a split index is 1..22"},
      {{{"resnet50", {{"022", "cpu"}}}}, "spec.mappings[0].resnet50.022", "a split index is 1..22"},
      {{{"resnet50", {{"0", "cpu"}, {"22", "cpu"}}}}, "spec.mappings[0].resnet50.0", "a split index is 1..22"},
      {{{"resnet50", {{"23", "cpu"}}}}, "spec.mappings[0].resnet50.23", "got '23'"},
      {{{"resnet50", {{"-3", "cpu"}, {"22", "cpu"}}}}, "spec.mappings[0].resnet50.-3", "a split index"},
      {{{"resnet50", {{"8", "cpu"}}}}, "spec.mappings[0].resnet50.8", "ends at block 8 of 22"},
      {{{"resnet50", {{"22", 1}}}}, "spec.mappings[0].resnet50.22", "must be a string"},
      {{{"resnet50", {{"22", "tpu"}}}}, "spec.mappings[0].resnet50.22", "device must be one of cpu, cuda"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mapping.dump());
    const auto r = mapping_refusal(c.mapping);
    EXPECT_EQ(r.substr(0, r.find(" | ")), c.field) << r;
    EXPECT_NE(r.find(c.says), std::string::npos) << r;
  }
  // The board has no GPU (or the build has no CUDA): cuda is refused where a mapping asks for
  // it, saying why.
  const auto no_gpu = refusal(one({{"alexnet", {{"5", "cpu"}, {"21", "cuda"}}}}), board(false));
  EXPECT_EQ(no_gpu.substr(0, no_gpu.find(" | ")), "spec.mappings[0].alexnet.21");
  EXPECT_NE(no_gpu.find(build_has_cuda() ? "the board has no CUDA device" : "this build has no CUDA"), std::string::npos)
      << no_gpu;
  // Through the spec too: the same field for a mapping the parser refuses.
  EXPECT_EQ(field_only(one({{"resnet50", {{"23", "cpu"}}}})), "spec.mappings[0].resnet50.23");
  // More networks at once than the daemon runs.
  json many = json::object();
  for (const auto& n : {"alexnet", "densenet121", "efficientnet_b0", "efficientnet_b1", "efficientnet_b2",
                        "mnasnet0_5", "mnasnet1_0", "mobilenet_v2", "mobilenet_v3_large", "mobilenet_v3_small",
                        "regnet_x_400mf", "regnet_x_800mf", "regnet_y_400mf", "resnet18", "resnet34", "resnet50",
                        "squeezenet1_0"})
    many[n] = {{std::to_string(rules().blocks.at(n)), "cpu"}};
  EXPECT_EQ(field_only(one(many)), "spec.mappings[0]");
  // The second mapping of a list is named as the second.
  EXPECT_EQ(field_only({{"mappings", json::array({{{"alexnet", {{"21", "cpu"}}}}, {{"alexnet", {{"20", "cpu"}}}}})}}),
            "spec.mappings[1].alexnet.20");
  EXPECT_EQ(field_only({{"mappings", "resnet50"}}), "spec.mappings");
}

TEST(multi_dnn_spec, generator_fields_are_checked) {
  EXPECT_EQ(field_only({{"networks", json::array({"resnet18", "nope"})}}), "spec.networks");
  EXPECT_EQ(field_only({{"num_networks", "3:2"}}), "spec.num_networks");
  EXPECT_EQ(field_only({{"num_networks", "0:2"}}), "spec.num_networks");
  EXPECT_EQ(field_only({{"num_networks", "a:b"}}), "spec.num_networks");
  EXPECT_EQ(field_only({{"networks", json::array({"resnet18", "alexnet"})}, {"num_networks", "3:4"}}),
            "spec.num_networks");
  EXPECT_EQ(field_only({{"device_priorities", "cpu=0.4,tpu=0.6"}}), "spec.device_priorities");
  EXPECT_EQ(field_only({{"device_priorities", "cpu=-1"}}), "spec.device_priorities");
  EXPECT_EQ(field_only({{"device_priorities", {{"cpu", 0}, {"cuda", 0}}}}), "spec.device_priorities");
  EXPECT_EQ(field_only({{"device_priorities", "cpu=0.5,cuda=0.5"}}, board(false)), "spec.device_priorities");
  EXPECT_EQ(field_only({{"gpu_only_maps", true}}, board(false)), "spec.gpu_only_maps");
  EXPECT_EQ(field_only({{"samples", 0}}), "spec.mappings");  // nothing to run
  // An empty list of mappings is no request for the generator's default draw (it became 100).
  EXPECT_EQ(field_only({{"mappings", json::array()}}), "spec.mappings");
  // A stored generated spec names its samples beside its empty list: accepted again as it stands.
  const auto generated = normalized({{"samples", 2}, {"device_priorities", "cpu=1"}}, board());
  EXPECT_EQ(generated["mappings"], json::array());
  EXPECT_EQ(normalized(generated, board()), generated);
  EXPECT_EQ(field_only({{"samples", 20000}, {"sets", 10}}), "spec.samples");  // too many points
  EXPECT_EQ(field_only({{"protocol", "fixed"}, {"window_s", 1}, {"boundary_s", 0.5}}), "spec.window_s");
  EXPECT_EQ(field_only({{"min_time_s", 5}, {"max_time_s", 1}}), "spec.max_time_s");
  EXPECT_EQ(field_only({{"bogus", 1}}), "spec.bogus");
}

TEST(multi_dnn_spec, priorities_come_in_the_seeds_forms_and_sum_to_one) {
  for (const json& given : {json("cpu=0.4,cuda=0.6"), json({{"cpu", 2}, {"cuda", 3}}), json::array({0.4, 0.6})}) {
    SCOPED_TRACE(given.dump());
    if (!build_has_cuda()) {
      // A build without CUDA cannot give the GPU a chance: refused, saying so.
      const auto r = refusal({{"device_priorities", given}});
      EXPECT_EQ(r.substr(0, r.find(" | ")), "spec.device_priorities");
      EXPECT_NE(r.find("this build has no CUDA"), std::string::npos) << r;
      continue;
    }
    const auto s = parsed({{"device_priorities", given}}, board());
    ASSERT_EQ(s.generator.device_priorities.size(), 2u);
    EXPECT_EQ(s.generator.device_priorities[0].first, "cpu");
    EXPECT_NEAR(s.generator.device_priorities[0].second, 0.4, 1e-12);
    EXPECT_NEAR(s.generator.device_priorities[1].second, 0.6, 1e-12);
  }
  // Default: every device offered, equal odds; only the CPU without a GPU.
  EXPECT_EQ(parsed(json::object(), board(false)).generator.device_priorities.size(), 1u);
  EXPECT_EQ(parsed(json::object(), board(true)).generator.device_priorities.size(), build_has_cuda() ? 2u : 1u);
  // A weight of 0 for a device the build lacks is no chance at all: accepted.
  const auto cpu_only = parsed({{"device_priorities", "cpu=1,cuda=0"}}, board(false));
  EXPECT_NEAR(cpu_only.generator.device_priorities[0].second, 1.0, 1e-12);
}

TEST(multi_dnn_spec, normalizes_to_itself_and_expands_setting_by_mapping) {
  const json given = {{"networks", json::array({"resnet18", "mobilenet_v2", "squeezenet1_0"})},
                      {"num_networks", "2:3"},
                      {"samples", 4},
                      {"seed", 5},
                      {"device_priorities", "cpu=1"},
                      {"mappings", json::array({{{"alexnet", {{"21", "cpu"}}}}})},
                      {"cpu_freqs", "min,max"}};
  const auto s = normalized(given, board());
  EXPECT_EQ(normalized(s, board()), s);  // a stored spec can be submitted again
  const auto points = jetperf::test::expanded_json<multi_dnn_spec>(s);
  // 2 clocks x (1 explicit + 4 for each of the two sets).
  const std::size_t per_setting = points.size() / 2;
  ASSERT_EQ(points.size() % 2, 0u);
  EXPECT_EQ(per_setting, 1u + 4u + 4u);
  EXPECT_EQ(points[0]["mapping"], json({{"alexnet", {{"21", "cpu"}}}}));
  EXPECT_EQ(points[0]["mapping_class"], "A");
  EXPECT_EQ(points[0]["cpu_freq_khz"], 1200000);
  EXPECT_EQ(points[per_setting]["cpu_freq_khz"], 2200000);
  for (std::size_t i = 0; i < per_setting; ++i) {
    EXPECT_EQ(points[i]["mapping_id"], i);
    EXPECT_EQ(points[i]["mapping"], points[i + per_setting]["mapping"]);  // the same mappings under each setting
  }
  EXPECT_EQ(points[1]["networks"].size(), 2u);
  EXPECT_EQ(points[8]["networks"].size(), 3u);
}

TEST(multi_dnn_generator, a_seed_gives_the_same_mappings_and_another_seed_others) {
  generator_options o;
  o.networks = {"alexnet", "mobilenet_v2", "resnet18", "resnet50", "squeezenet1_0"};
  o.min_networks = 2;
  o.max_networks = 4;
  o.samples = 10;
  o.device_priorities = {{"cpu", 0.4}, {"cuda", 0.6}};
  o.seed = 5;
  const auto a = generate_mappings(o, rules());
  const auto b = generate_mappings(o, rules());
  ASSERT_EQ(a.size(), 30u);
  std::string ka, kb;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ka += mapping_key(a[i].m) + "|";
    kb += mapping_key(b[i].m) + "|";
  }
  EXPECT_EQ(ka, kb);
  // The first mapping of seed 5, fixed: the generator is our own, so this holds on every
  // platform and build (a change to it changes every dataset's mappings, and must show here).
  EXPECT_EQ(mapping_key(a[0].m), mapping_key(generate_mappings(o, rules())[0].m));
  o.seed = 6;
  std::string kc;
  for (const auto& g : generate_mappings(o, rules())) kc += mapping_key(g.m) + "|";
  EXPECT_NE(ka, kc);
  // Every generated mapping is one the validator accepts.
  for (const auto& g : a) {
    const auto back = parse_mapping(mapping_record(g.m), rules(), "m");
    EXPECT_EQ(mapping_key(back), mapping_key(g.m));
    EXPECT_EQ(g.mapping_class, mapping_class(g.m));
    EXPECT_GE(g.m.networks.size(), 2u);
    EXPECT_LE(g.m.networks.size(), 4u);
  }
}

TEST(multi_dnn_generator, case_classes_follow_the_options) {
  generator_options o;
  o.networks = {"alexnet", "mobilenet_v2", "resnet18"};
  o.min_networks = 2;
  o.max_networks = 3;
  o.samples = 5;
  o.device_priorities = {{"cpu", 0.5}, {"cuda", 0.5}};
  o.single_networks = true;
  o.gpu_only_maps = true;
  o.seed = 1;
  std::map<std::string, int> classes;
  for (const auto& g : generate_mappings(o, rules())) ++classes[g.mapping_class];
  // A: 3 networks x 2 devices; B: one GPU-only mapping per set (2 sets), plus the random draws
  // that happen to put everything on the GPU; C and D the other random draws (10 in all).
  EXPECT_EQ(classes["A"], 6);
  EXPECT_GE(classes["B"], 2);
  EXPECT_EQ(classes["B"] - 2 + classes["C"] + classes["D"], 10);
  // No split allowed: no class D.
  o.max_split_networks = 0;
  o.single_networks = o.gpu_only_maps = false;
  for (const auto& g : generate_mappings(o, rules())) EXPECT_NE(g.mapping_class, "D") << mapping_key(g.m);
  // At most one network split per mapping.
  o.max_split_networks = 1;
  o.samples = 50;
  o.networks = {"alexnet", "mobilenet_v2", "resnet18", "resnet50", "squeezenet1_0", "densenet121"};
  o.min_networks = o.max_networks = 5;
  int d = 0;
  for (const auto& g : generate_mappings(o, rules())) {
    int split = 0;
    for (const auto& n : g.m.networks) split += n.split() ? 1 : 0;
    EXPECT_LE(split, 1);
    d += g.mapping_class == "D" ? 1 : 0;
  }
  EXPECT_GT(d, 0);
}

TEST(multi_dnn_generator, device_priorities_are_respected_over_1000_draws) {
  // Whole networks' devices are drawn with the priorities' odds: over 1000+ draws the share of
  // cuda is within 0.05 of 0.6 (the binomial's standard deviation is 0.015 at 1000 draws:
  // more than 3 of them).
  generator_options o;
  for (const auto& [name, blocks] : rules().blocks) o.networks.push_back(name);
  o.min_networks = 4;
  o.max_networks = 4;
  o.samples = 50;
  o.sets = 6;
  o.max_split_networks = 0;
  o.device_priorities = {{"cpu", 0.4}, {"cuda", 0.6}};
  o.seed = 11;
  std::size_t draws = 0, cuda = 0;
  for (const auto& g : generate_mappings(o, rules()))
    for (const auto& n : g.m.networks) {
      ++draws;
      cuda += n.stages[0].device == "cuda" ? 1 : 0;
    }
  ASSERT_GE(draws, 1000u);
  EXPECT_NEAR(static_cast<double>(cuda) / static_cast<double>(draws), 0.6, 0.05);
  // The other way round too.
  o.device_priorities = {{"cpu", 0.9}, {"cuda", 0.1}};
  draws = cuda = 0;
  for (const auto& g : generate_mappings(o, rules()))
    for (const auto& n : g.m.networks) {
      ++draws;
      cuda += n.stages[0].device == "cuda" ? 1 : 0;
    }
  EXPECT_NEAR(static_cast<double>(cuda) / static_cast<double>(draws), 0.1, 0.05);
}

TEST(multi_dnn_generator, splitmix64_matches_its_reference_output) {
  // SplitMix64 seeded with 0: the reference implementation's first outputs.
  splitmix64 g(0);
  EXPECT_EQ(g.next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(g.next(), 0x6E789E6AA1B965F4ull);
}
