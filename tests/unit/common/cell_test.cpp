// Cells, records and rows: the typed values the middle builds rows, points, timelines and views
// from, and their one conversion to and from JSON.
#include <gtest/gtest.h>

#include <map>
#include <optional>

#include <jetperf/store/cell_json.hpp>

using namespace jetperf;

namespace {
constexpr column_key<double> time_s{"time_s"};
constexpr column_key<std::int64_t> runs{"runs"};
constexpr column_key<bool> tensor{"tensor"};
constexpr column_key<std::string> device{"device"};
constexpr column_key<std::vector<std::string>> flags{"flags"};
constexpr column_key<record> read_back{"read_back"};
}  // namespace

TEST(cell, each_value_keeps_its_type) {
  EXPECT_TRUE(cell().is_null());
  EXPECT_TRUE(cell(std::optional<double>()).is_null());
  EXPECT_TRUE(cell(3).is_integer());
  EXPECT_TRUE(cell(std::size_t{3}).is_integer());
  EXPECT_TRUE(cell(3.0).is_double());
  EXPECT_TRUE(cell(true).is_bool());  // not an integer
  EXPECT_EQ(cell("cpu").text(), std::optional<std::string>("cpu"));
  EXPECT_EQ(cell(std::optional<double>(0.5)).number(), 0.5);
  EXPECT_EQ(cell(std::vector<std::string>{"a", "b"}).strings(), (std::vector<std::string>{"a", "b"}));
  const cell m(std::map<std::string, double>{{"CPU", 2.0}, {"GPU", 3.0}});
  ASSERT_TRUE(m.is_record());
  EXPECT_EQ(m.as_record().at("GPU").number(), 3.0);
  EXPECT_FALSE(cell("x").number());
  EXPECT_NE(cell(1), cell(1.0));
}

TEST(cell, a_record_keeps_first_set_order_replaces_in_place_and_compares_by_content) {
  record r{{"b", 1}, {"a", 2}};
  r.set("c", 3);
  r.set("b", 10);  // replaced where it was
  std::vector<std::string> keys;
  for (const auto& e : r) keys.push_back(e.first);
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(r.at("b").integer(), 10);
  EXPECT_TRUE(r.erase("a"));
  EXPECT_FALSE(r.erase("a"));
  EXPECT_EQ(r.find("a"), nullptr);
  EXPECT_THROW(r.at("a"), std::out_of_range);
  EXPECT_EQ(r, (record{{"c", 3}, {"b", 10}}));
  EXPECT_NE(r, (record{{"c", 3}, {"b", 11}}));
}

TEST(row, reads_back_what_its_constants_wrote_and_nothing_of_another_type) {
  row r;
  r.set(time_s, 0.25);
  r.set(runs, 12);
  r.set(tensor, false);
  r.set(device, "cuda");
  r.set(flags, std::vector<std::string>{"rse_unmet"});
  r.set(read_back, record{{"gpu_freq_hz", 900000000}});
  r.put("rail_VDD_GPU_w", 3.5);
  EXPECT_EQ(r.get(time_s), 0.25);
  EXPECT_EQ(r.get(runs), 12);
  EXPECT_EQ(r.get(tensor), false);
  EXPECT_EQ(r.get(device), std::optional<std::string>("cuda"));
  EXPECT_EQ(r.get(flags), (std::vector<std::string>{"rse_unmet"}));
  EXPECT_EQ(r.get(read_back)->at("gpu_freq_hz").integer(), 900000000);
  EXPECT_EQ(r.find("rail_VDD_GPU_w")->number(), 3.5);
  // A number column reads an integer; an integer column does not read a double; null is absent.
  r.put("time_s", 2);
  EXPECT_EQ(r.get(time_s), 2.0);
  r.put("runs", 2.5);
  EXPECT_FALSE(r.get(runs));
  r.set(time_s, std::optional<double>());
  EXPECT_TRUE(r.has(time_s));
  EXPECT_FALSE(r.get(time_s));
}

TEST(row, a_declaration_takes_its_name_and_type_from_the_key) {
  const auto c = declare(flags, column_role::metric, "", "caveats", true);
  EXPECT_EQ(c.name, "flags");
  EXPECT_EQ(c.type, column_type::list);
  EXPECT_TRUE(c.shown);
  EXPECT_FALSE(c.main);
  EXPECT_EQ(declare(runs, column_role::parameter, "", "").type, column_type::integer);
  EXPECT_EQ(declare(read_back, column_role::metric, "", "").type, column_type::object);
}

TEST(cell_json, integers_doubles_nulls_and_nesting_survive_the_round_trip) {
  const auto j = nlohmann::json::parse(
      R"({"a":1,"b":1.0,"c":null,"d":[1,"x",true,null],"e":{"z":2,"y":{"k":[]}},"f":18446744073709551615})");
  const auto c = cell_of(j);
  EXPECT_TRUE(c.as_record().at("a").is_integer());
  EXPECT_TRUE(c.as_record().at("b").is_double());
  EXPECT_TRUE(c.as_record().at("f").is_integer());  // unsigned read as a (wrapped) integer
  auto back = to_json(c);
  back.erase("f");
  auto want = j;
  want.erase("f");
  EXPECT_EQ(back.dump(), want.dump());
  EXPECT_EQ(row_of(j), row(c.as_record()));
  EXPECT_TRUE(record_of(nlohmann::json::array()).empty());
}

TEST(cell_json, stored_json_sorts_keys_and_ordered_json_keeps_the_order_they_were_set) {
  const record r{{"mapping_id", 3}, {"Device", nullptr}, {"avg", 1.5}};
  EXPECT_EQ(to_json(r).dump(), R"({"Device":null,"avg":1.5,"mapping_id":3})");
  EXPECT_EQ(to_ordered_json(r).dump(), R"({"mapping_id":3,"Device":null,"avg":1.5})");
  EXPECT_EQ(cell_of(nlohmann::ordered_json::parse(R"({"z":1,"a":2})")).as_record().begin()->first, "z");
}
