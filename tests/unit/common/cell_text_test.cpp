// A cell's JSON text against nlohmann's dump() of the same value: the refusals that quote a
// spec's value read as they did when specs were JSON.
#include <jetperf/common/cell_text.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/store/cell_json.hpp>

namespace jetperf {
namespace {

TEST(cell_text, doubles_read_as_nlohmann_writes_them) {
  const std::vector<double> values = {0.1,   0.5,   2.0,    -2.5,  100.0, 1e20,  1e-5,   1e-4,  0.0001234, 1e14,
                                      1e15,  1e16,  123456789012345.0,  3.14159, 1.5e300, -7.25e-12, 0.3,
                                      1.0 / 3, 2.0 / 3, 5e-324, std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::min(), 4503599627370496.0, 9007199254740993.0,
                                      -0.0,  0.0,   1e-7,   12.5e10, 65536.0, 0.05, 0.01, 1e-6};
  for (const double v : values) EXPECT_EQ(json_number_text(v), nlohmann::json(v).dump()) << v;
  EXPECT_EQ(json_number_text(2.0), "2.0");
  EXPECT_EQ(json_number_text(1e20), "1e+20");
  EXPECT_EQ(json_number_text(1e-5), "1e-05");
  EXPECT_EQ(json_number_text(-0.0), "-0.0");
}

TEST(cell_text, doubles_json_cannot_hold_are_null) {
  for (const double v : {std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(json_number_text(v), "null");
    EXPECT_EQ(json_number_text(v), nlohmann::json(v).dump());
  }
}

// nlohmann's Grisu2 is not always shortest: for about one double in a thousand it writes a
// longer text that reads back as the same double. json_text writes the shortest one; a refusal
// quoting such a value (a batch of 0.09656) reads the shorter way.
TEST(cell_text, a_double_is_its_shortest_round_trip_text) {
  EXPECT_EQ(json_number_text(0.09656), "0.09656");
  EXPECT_EQ(std::strtod(json_number_text(0.09656).c_str(), nullptr), 0.09656);
  EXPECT_EQ(json_number_text(0.1 + 0.2), "0.30000000000000004");
}

TEST(cell_text, strings_are_escaped_as_nlohmann_escapes_them) {
  const std::vector<std::string> values = {"plain",        "say \"hi\"",      "back\\slash", "line\nbreak\ttab",
                                           "\b\f\r",       std::string("nul\0x", 5), "\x01\x1f", "del\x7f",
                                           "caf\xc3\xa9",  "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80", "/slash", ""};
  for (const auto& v : values) EXPECT_EQ(json_text(v), nlohmann::json(v).dump()) << v;
  EXPECT_EQ(json_text("\x01"), "\"\\u0001\"");
}

TEST(cell_text, values_and_nesting_read_as_their_json) {
  const std::vector<cell> values = {
      cell(),
      true,
      false,
      0,
      -7,
      std::numeric_limits<std::int64_t>::max(),
      std::numeric_limits<std::int64_t>::min(),
      cell_list{1, "x", true, cell(), 2.0},
      cell_list{},
      record{{"z", 1}, {"a", cell_list{0.5, "q\""}}, {"m", record{{"k", cell()}, {"b", 1e20}}}},
      record{},
  };
  for (const auto& v : values) EXPECT_EQ(json_text(v), to_json(v).dump()) << to_json(v).dump();
  EXPECT_EQ(json_text(record{{"z", 1}, {"a", 2}}), R"({"a":2,"z":1})") << "keys sorted, as a JSON object holds them";
}

TEST(cell_text, a_value_read_from_json_text_reads_back_as_that_text) {
  for (const char* text : {R"([1,2.5,"a",null,{"b":[true,false]}])", R"({"dtype":"int8","n":-3})", "4.0", "\"x\""})
    EXPECT_EQ(json_text(cell_of(nlohmann::json::parse(text))), nlohmann::json::parse(text).dump()) << text;
}

}  // namespace
}  // namespace jetperf
