// Every declared field of every kind refuses a value of the wrong type and an empty list where a
// list is required, naming the field (issue 58, item 5: `spec.tags` took any value, and four
// empty lists were read as "the default"). Table-driven over each kind's own declaration, so a
// field added later is covered without a line here.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/common/errors.hpp>
#include <jetperf/kinds/command/command_kind.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>
#include <jetperf/kinds/idle/idle_kind.hpp>
#include <jetperf/kinds/layers/layers_kind.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_kind.hpp>
#include <jetperf/kinds/sensor/sensor_kind.hpp>
#include <jetperf/platform/user_account.hpp>

using namespace jetperf;

namespace {

std::vector<std::unique_ptr<jobs::workload>> all_kinds() {
  kinds::command_policy command;
  command.enabled = true;
  command.account = platform::current_account();
  command.switch_user = false;
  std::vector<std::unique_ptr<jobs::workload>> out;
  out.push_back(kinds::make_idle_kind());
  out.push_back(kinds::make_gemm_kind());
  out.push_back(kinds::make_layers_kind());
  out.push_back(kinds::make_multi_dnn_kind());
  out.push_back(kinds::make_sensor_kind());
  out.push_back(kinds::make_command_kind(command));
  return out;
}

// What each kind needs besides the field under test, so that a refusal is that field's.
record base_spec(const std::string& kind) {
  if (kind == "layers") return record{{"models", "resnet18"}};
  if (kind == "command") return record{{"argv", cell_list{cell("/bin/true")}}};
  return record{};
}

// The field a refusal names (the field under test over the kind's base spec); "<accepted>" when
// there is none.
std::string refused_field(const jobs::workload& w, const record& fields) {
  record spec = base_spec(w.kind());
  for (const auto& [k, v] : fields) spec.set(k, v);
  try {
    w.normalize(spec, platform::board_offer{});
  } catch (const validation_error& e) {
    return e.field() + " (" + e.what() + ")";
  }
  return "<accepted>";
}

std::string field_of(const std::string& refusal) { return refusal.substr(0, refusal.find(' ')); }

// Values no declared type takes in any of its forms (a list field also takes its one-value
// texts and numbers, which the kind reads).
std::vector<std::pair<std::string, cell>> wrong_values(spec_type t) {
  const cell object = record{{"x", 1}};
  switch (t) {
    case spec_type::number:
    case spec_type::integer:
      return {{"object", object}, {"text", cell("x")}, {"boolean", cell(true)}, {"list", cell(cell_list{1})}};
    case spec_type::boolean:
      return {{"object", object}, {"text", cell("yes")}, {"number", cell(1)}};
    case spec_type::text:
      return {{"object", object}, {"boolean", cell(true)}};
    case spec_type::list:
      return {{"object", object}, {"boolean", cell(true)}};
    case spec_type::object:
      return {{"boolean", cell(true)}, {"number", cell(5)}};
  }
  return {};
}

// Lists that may be empty: tags; a stored spec's unused half (layers' models or networks,
// multi_dnn's mappings or the generator's networks).
const std::set<std::string> k_may_be_empty = {"tags", "layers.models", "layers.networks", "multi_dnn.mappings",
                                              "multi_dnn.networks"};

}  // namespace

TEST(spec_field_types, every_declared_field_refuses_a_value_of_the_wrong_type_naming_itself) {
  std::size_t checked = 0;
  for (const auto& w : all_kinds()) {
    for (const auto& f : w->spec_fields()) {
      for (const auto& [what, value] : wrong_values(f.type)) {
        record spec;
        spec.set(f.name, value);
        EXPECT_EQ(field_of(refused_field(*w, spec)), "spec." + f.name) << w->kind() << "." << f.name << " took a " << what << ": " << refused_field(*w, spec);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200u);
}

TEST(spec_field_types, an_empty_list_is_refused_where_a_list_is_required) {
  std::size_t checked = 0;
  for (const auto& w : all_kinds()) {
    for (const auto& f : w->spec_fields()) {
      if (f.type != spec_type::list) continue;
      record spec;
      spec.set(f.name, cell_list{});
      const bool may = k_may_be_empty.count(f.name) || k_may_be_empty.count(w->kind() + "." + f.name);
      if (may) continue;
      EXPECT_EQ(field_of(refused_field(*w, spec)), "spec." + f.name) << w->kind() << "." << f.name << " took []: " << refused_field(*w, spec);
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
}

TEST(spec_field_types, tags_are_a_short_list_of_short_texts) {
  for (const auto& w : all_kinds()) {
    bool declared = false;
    for (const auto& f : w->spec_fields()) declared = declared || f.name == "tags";
    if (!declared) continue;
    for (const cell& bad : {cell(5), cell("x"), cell(cell_list{cell(1)}), cell(cell_list{cell("")}),
                            cell(cell_list{cell(std::string(65, 'a'))}), cell(cell_list(33, cell("t")))}) {
      record spec;
      spec.set("tags", bad);
      EXPECT_EQ(field_of(refused_field(*w, spec)), "spec.tags") << w->kind() << ": " << refused_field(*w, spec);
    }
  }
}
