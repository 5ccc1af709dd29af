#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>

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
