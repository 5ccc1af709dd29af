// A spec's fields bound to its struct's members: one declaration parses, stores and serves each.
#include <jetperf/common/spec_table.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

namespace jetperf {
namespace {

struct toy_spec {
  std::string mode = "x";
  double window_s = 0;
  std::optional<double> duration_s;
  std::int64_t repeats = 0;
  bool pin = false;
};

cell window_by_mode(const toy_spec& s) { return s.mode == "long" ? 10.0 : 1.0; }

const spec_table<toy_spec>& toy_table() {
  static const spec_table<toy_spec> table({
      {{"mode", spec_type::text, "short", "short or long", 0, 0, {"short", "long"}}, &toy_spec::mode},
      {{"window_s", spec_type::number, nullptr, "1 short, 10 long", 0.5, 60, {}}, &toy_spec::window_s, window_by_mode},
      {{"duration_s", spec_type::number, nullptr, "a fixed window instead", 0.01, 5, {}}, &toy_spec::duration_s},
      {{"repeats", spec_type::integer, 3, "times", 1, 9, {}}, &toy_spec::repeats},
      {{"pin", spec_type::boolean, false, "pin", 0, 0, {}}, &toy_spec::pin},
      {{"tags", spec_type::list, nullptr, "read by the kind", 0, 0, {}}, {}},
  });
  return table;
}

toy_spec parsed(const record& j) {
  toy_spec s;
  toy_table().parse(j, s);
  return s;
}

std::string refused_field(const record& j) {
  try {
    parsed(j);
  } catch (const validation_error& e) {
    return e.field();
  }
  return "";
}

std::string refused_stored(const record& j) {
  try {
    toy_spec s;
    toy_table().stored(j, s);
  } catch (const validation_error& e) {
    return e.field();
  }
  return "";
}

TEST(spec_table, absent_fields_take_their_defaults_and_a_rule_reads_the_fields_before_it) {
  auto s = parsed(record());
  EXPECT_EQ(s.mode, "short");
  EXPECT_DOUBLE_EQ(s.window_s, 1.0);
  EXPECT_FALSE(s.duration_s);
  EXPECT_EQ(s.repeats, 3);
  EXPECT_FALSE(s.pin);
  s = parsed({{"mode", "long"}, {"duration_s", 2}, {"repeats", 9}, {"pin", true}, {"window_s", nullptr}});
  EXPECT_DOUBLE_EQ(s.window_s, 10.0);
  EXPECT_EQ(s.duration_s, 2.0);
  EXPECT_EQ(s.repeats, 9);
  EXPECT_TRUE(s.pin);
}

TEST(spec_table, each_refusal_names_its_field) {
  EXPECT_EQ(refused_field({{"mode", "medium"}}), "spec.mode");
  EXPECT_EQ(refused_field({{"window_s", 0.1}}), "spec.window_s");
  EXPECT_EQ(refused_field({{"duration_s", 6}}), "spec.duration_s");
  EXPECT_EQ(refused_field({{"repeats", 2.5}}), "spec.repeats");
  EXPECT_EQ(refused_field({{"pin", "yes"}}), "spec.pin");
  EXPECT_EQ(refused_field({{"tags", 5}}), "") << "declared only: the kind reads it";
}

TEST(spec_table, the_stored_form_reads_back_and_a_field_stored_before_it_existed_takes_its_default) {
  const auto s = parsed({{"mode", "long"}, {"duration_s", 0.5}, {"repeats", 4}});
  record stored;
  toy_table().put(s, stored);
  EXPECT_EQ(stored, (record{{"mode", "long"}, {"window_s", 10.0}, {"duration_s", 0.5}, {"repeats", 4}, {"pin", false}}));
  EXPECT_TRUE(stored.at("window_s").is_double()) << "a number field stays a double: stored JSON keeps 10.0";
  EXPECT_TRUE(stored.at("repeats").is_integer());
  toy_spec back;
  toy_table().stored(stored, back);
  EXPECT_EQ(back.mode, "long");
  EXPECT_EQ(back.duration_s, 0.5);
  EXPECT_EQ(back.repeats, 4);
  stored.erase("repeats");
  stored.erase("window_s");
  stored.set("duration_s", nullptr);
  toy_table().stored(stored, back);
  EXPECT_EQ(back.repeats, 3);
  EXPECT_DOUBLE_EQ(back.window_s, 10.0) << "the rule, over the stored mode";
  EXPECT_FALSE(back.duration_s);
}

TEST(spec_table, a_stored_value_reads_as_its_members_type_or_is_refused) {
  toy_spec back;
  toy_table().stored(record{{"mode", "long"}, {"window_s", 4}, {"repeats", 2.0}}, back);
  EXPECT_DOUBLE_EQ(back.window_s, 4.0) << "an integer stored for a number";
  EXPECT_EQ(back.repeats, 2) << "a whole double stored for an integer";
  EXPECT_EQ(refused_stored(record{{"mode", 3}}), "spec.mode");
  EXPECT_EQ(refused_stored(record{{"pin", "yes"}}), "spec.pin");
}

TEST(spec_table, declarations_keep_the_order_and_the_unbound_fields) {
  std::vector<std::string> names;
  for (const auto& f : toy_table().declarations()) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"mode", "window_s", "duration_s", "repeats", "pin", "tags"}));
}

}  // namespace
}  // namespace jetperf
