#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/common/stored_spec.hpp>

using namespace jetperf;


namespace {
template <class F>
std::string code_of(F&& f) {
  try {
    f();
  } catch (const validation_error& e) {
    return e.field() + ":" + e.code();
  }
  return "ok";
}
}  // namespace

TEST(spec_fields, integers) {
  EXPECT_EQ(jetperf::integer_field({{"n", 5}}, "n", 1, 10, 3), 5);
  EXPECT_EQ(jetperf::integer_field(record(), "n", 1, 10, 3), 3);
  EXPECT_EQ(jetperf::integer_field({{"n", 4.0}}, "n", 1, 10, 3), 4);
  EXPECT_EQ(code_of([] { jetperf::integer_field({{"n", 4.5}}, "n", 1, 10, 3); }), "spec.n:invalid_field");
  EXPECT_EQ(code_of([] { jetperf::integer_field({{"n", "4"}}, "n", 1, 10, 3); }), "spec.n:invalid_field");
  EXPECT_EQ(code_of([] { jetperf::integer_field({{"n", 11}}, "n", 1, 10, 3); }), "spec.n:out_of_range");
  EXPECT_EQ(code_of([] { jetperf::integer_field({{"n", 18446744073709551615ULL}}, "n", 1, 10, 3); }),
            "spec.n:out_of_range");
}

TEST(spec_fields, numbers_strings_and_unknown_fields) {
  EXPECT_DOUBLE_EQ(jetperf::number_field({{"x", 0.5}}, "x", 0, 1, 0.1), 0.5);
  EXPECT_EQ(code_of([] { jetperf::number_field({{"x", nullptr}}, "x", 0, 1, 0.1); }), "spec.x:invalid_field");
  EXPECT_EQ(code_of([] { jetperf::number_field({{"x", 2}}, "x", 0, 1, 0.1); }), "spec.x:out_of_range");
  EXPECT_EQ(jetperf::string_field({{"s", "a"}}, "s", "b"), "a");
  EXPECT_EQ(code_of([] { jetperf::string_field({{"s", 1}}, "s", "b"); }), "spec.s:invalid_field");
  EXPECT_EQ(code_of([] { jetperf::reject_unknown_fields({{"a", 1}, {"zz", 2}}, {"a"}); }), "spec.zz:unknown_field");
}

namespace {
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const validation_error& e) {
    return e.field() + " | " + e.what() + " | " + e.code();
  }
  return "ok";
}

const spec_field k_repeats{"repeats", spec_type::integer, 3, "times", 1, 10, {}};
const spec_field k_window{"window_s", spec_type::number, 0.5, "seconds", 0.01, 60, {}};
const spec_field k_mode{"mode", spec_type::text, "fast", "fast or slow", 0, 0, {"fast", "slow"}};
const spec_field k_pin{"pin", spec_type::boolean, false, "pin", 0, 0, {}};
}  // namespace

TEST(spec_fields, declared_fields_read_a_record_and_take_their_defaults_when_absent_or_null) {
  const record none;
  EXPECT_EQ(integer_field(none, k_repeats), 3);
  EXPECT_DOUBLE_EQ(number_field(none, k_window), 0.5);
  EXPECT_EQ(string_field(none, k_mode), "fast");
  EXPECT_FALSE(bool_field(none, k_pin));
  const record nulls{{"repeats", nullptr}, {"window_s", nullptr}, {"mode", nullptr}, {"pin", nullptr}};
  EXPECT_EQ(integer_field(nulls, k_repeats), 3);
  EXPECT_DOUBLE_EQ(number_field(nulls, k_window), 0.5);
  EXPECT_EQ(string_field(nulls, k_mode), "fast");
  const record given{{"repeats", 7}, {"window_s", 2}, {"mode", "slow"}, {"pin", true}};
  EXPECT_EQ(integer_field(given, k_repeats), 7);
  EXPECT_DOUBLE_EQ(number_field(given, k_window), 2.0) << "an integer is a number";
  EXPECT_EQ(string_field(given, k_mode), "slow");
  EXPECT_TRUE(bool_field(given, k_pin));
  EXPECT_EQ(integer_field(record{{"repeats", 4.0}}, k_repeats), 4) << "JSON's 4.0 is the integer 4";
  EXPECT_EQ(integer_field(none, k_repeats, 9), 9) << "a default that depends on other fields";
}

TEST(spec_fields, refusals_over_a_record_read_as_the_json_ones_did) {
  EXPECT_EQ(message_of([] { integer_field(record{{"repeats", 11}}, k_repeats); }),
            "spec.repeats | repeats must be at most 10 | out_of_range");
  EXPECT_EQ(message_of([] { integer_field(record{{"repeats", -2}}, k_repeats); }),
            "spec.repeats | repeats must be between 1 and 10, got -2 | out_of_range");
  EXPECT_EQ(message_of([] { integer_field(record{{"repeats", 11.0}}, k_repeats); }),
            "spec.repeats | repeats must be between 1 and 10, got 11 | out_of_range");
  EXPECT_EQ(message_of([] { integer_field(record{{"repeats", 2.5}}, k_repeats); }),
            "spec.repeats | repeats must be an integer | invalid_field");
  EXPECT_EQ(message_of([] { number_field(record{{"window_s", 61}}, k_window); }),
            "spec.window_s | window_s must be between 0.01 and 60, got 61 | out_of_range");
  EXPECT_EQ(message_of([] { number_field(record{{"window_s", "1"}}, k_window); }),
            "spec.window_s | window_s must be a number | invalid_field");
  EXPECT_EQ(message_of([] { string_field(record{{"mode", "medium"}}, k_mode); }),
            "spec.mode | mode must be one of \"fast\", \"slow\", got \"medium\" | invalid_field");
  EXPECT_EQ(message_of([] { bool_field(record{{"pin", 1}}, k_pin); }),
            "spec.pin | pin must be true or false | invalid_field");
  EXPECT_EQ(message_of([] { check_spec_fields(record{{"repeats", 1}, {"bogus", 2}}, {k_repeats, k_window}); }),
            "spec.bogus | unknown field 'bogus' (known: repeats, window_s) | unknown_field");
}

TEST(stored_spec, reads_a_stored_specs_values_and_refuses_one_no_longer_valid) {
  const record j{{"n", 3}, {"x", 2}, {"s", "a"}, {"b", true}, {"names", cell_list{"p", "q"}}, {"sizes", cell()}};
  const stored_spec r(j);
  EXPECT_EQ(r.integer("n"), 3);
  EXPECT_DOUBLE_EQ(r.number("x"), 2.0);
  EXPECT_EQ(r.text("s"), "a");
  EXPECT_TRUE(r.boolean("b"));
  EXPECT_EQ(r.texts("names"), (std::vector<std::string>{"p", "q"}));
  EXPECT_TRUE(r.integers("sizes").empty()) << "null: none";
  EXPECT_EQ(code_of([&] { r.text("n"); }), "spec.n:invalid_field");
  EXPECT_EQ(code_of([&] { r.integer("missing"); }), "spec.missing:invalid_field");
  EXPECT_EQ(code_of([&] { r.integers("names"); }), "spec.names:invalid_field");
}
