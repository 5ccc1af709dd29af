// Declared summary tables rendered without knowing the kind: a hand-made declaration over a
// hand-made summary, read back from the JSON GET /v1/kinds serves, gives exactly these lines.
#include <gtest/gtest.h>

#include "summary_tables.hpp"
#include "summary_view.hpp"

using nlohmann::json;
using namespace jetperf;

namespace {

// As GET /v1/kinds/{kind} serves it: a flat table with a title, a dotted path, a fraction and a
// setting, and a nested one with its parent's setting and its members' names.
const json k_kind = json::parse(R"js({"kind": "copy", "summary_tables": [
  {"name": "items", "title": "items (per run)", "rows": "items", "nested": "", "empty_text": "items: -",
   "columns": [
     {"header": "name", "path": "name", "unit": "", "format": "value", "source": "row"},
     {"header": "gflops", "path": "over_idle.gflops", "unit": "GFLOP/s", "format": "value", "source": "row"},
     {"header": "part", "path": "done", "unit": "", "format": "fraction", "source": "row", "of": "total"},
     {"header": "setting", "path": "setting", "unit": "", "format": "setting", "source": "row"}]},
  {"name": "steps", "title": "", "rows": "items", "nested": "steps", "empty_text": "",
   "columns": [
     {"header": "setting", "path": "setting", "unit": "", "format": "setting", "source": "parent"},
     {"header": "step", "path": "", "unit": "", "format": "value", "source": "key"},
     {"header": "time_s", "path": "time_s", "unit": "s", "format": "value", "source": "row"}]}]})js");

const json k_summary = json::parse(R"js({
  "items": [
    {"name": "a", "over_idle": {"gflops": 12.5}, "done": 2, "total": 3, "setting": {"cpu_freq_khz": 1000, "gpu_freq_hz": null},
     "steps": {"load": {"time_s": 0.25}, "run": {"time_s": 1.5}}},
    7,
    {"name": "bb", "setting": {}}],
  "kept": 4,
  "points": {"ok": 2, "skipped": 0, "failed": 0}})js");

}  // namespace

TEST(summary_tables, are_read_from_the_kinds_answer) {
  const auto tables = client::parse_summary_tables(k_kind);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].name, "items");
  EXPECT_EQ(tables[0].title, "items (per run)");
  EXPECT_EQ(tables[0].empty_text, "items: -");
  ASSERT_EQ(tables[0].columns.size(), 4u);
  EXPECT_EQ(tables[0].columns[1].path, "over_idle.gflops");
  EXPECT_EQ(tables[0].columns[1].unit, "GFLOP/s");
  EXPECT_EQ(tables[0].columns[2].format, summary_format::fraction);
  EXPECT_EQ(tables[0].columns[2].of, "total");
  EXPECT_EQ(tables[0].columns[3].format, summary_format::setting);
  EXPECT_EQ(tables[1].nested, "steps");
  EXPECT_EQ(tables[1].columns[0].source, summary_source::parent);
  EXPECT_EQ(tables[1].columns[1].source, summary_source::key);
  EXPECT_TRUE(client::parse_summary_tables(json{{"kind", "idle"}}).empty()) << "an older daemon declares none";
}

TEST(summary_tables, render_each_declared_table_generically) {
  const auto tables = client::parse_summary_tables(k_kind);
  EXPECT_EQ(client::format_summary_table(tables[0], k_summary),
            "items (per run):\n"
            "name  gflops  part  setting\n"
            "a       12.5  2/3   cpu_freq_khz=1000\n"
            "bb         -  -/-   as is\n");
  EXPECT_EQ(client::format_summary_table(tables[1], k_summary),
            "setting            step  time_s\n"
            "cpu_freq_khz=1000  load    0.25\n"
            "cpu_freq_khz=1000  run      1.5\n");
  const json empty = {{"items", json::array()}};
  EXPECT_EQ(client::format_summary_table(tables[0], empty), "items: -\n");
  EXPECT_EQ(client::format_summary_table(tables[1], empty), "");
}

TEST(summary_tables, make_the_summary_views_of_a_kind_the_client_does_not_know) {
  const auto tables = client::parse_summary_tables(k_kind);
  EXPECT_EQ(client::format_results_summary("copy", k_summary, tables),
            "\nsummary:\n"
            "  items (per run):\n"
            "  name  gflops  part  setting\n"
            "  a       12.5  2/3   cpu_freq_khz=1000\n"
            "  bb         -  -/-   as is\n"
            "  setting            step  time_s\n"
            "  cpu_freq_khz=1000  load    0.25\n"
            "  cpu_freq_khz=1000  run      1.5\n"
            "  points: 2 ok, 0 skipped, 0 failed\n");
  // `show` adds the summary's other keys; the tables' list is not printed again.
  const auto shown = client::format_show_summary("copy", k_summary, tables);
  EXPECT_EQ(shown.substr(0, 28), "summary:\n  items (per run):\n") << shown;
  EXPECT_NE(shown.find("  kept: 4\n  points: 2 ok"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("items:"), std::string::npos) << shown;
  // Without a declaration the same summary reads as key: value lines.
  EXPECT_EQ(client::format_results_summary("copy", {{"kept", 4}}, {}), "\nsummary:\n  kept: 4\n");
}

// A comparison declared as a table for the parameter asked for: "{by}" in headers, paths, `of`
// and the empty text stands for it; params reads a point's settings from the row leaving that
// parameter out, count the length of a list.
TEST(compare_views, are_read_and_rendered_for_the_parameter_asked_for) {
  const auto kind = json::parse(R"js({"kind": "copy", "compare_views": [
    {"by": ["gpu_freq_hz", "dtype"], "table": {"name": "best", "title": "", "rows": "rows", "nested": "",
     "empty_text": "no comparable points (by {by})",
     "columns": [
       {"header": "params", "path": "", "unit": "", "format": "params", "source": "row", "of": "{by}"},
       {"header": "best_{by}", "path": "best_{by}", "unit": "", "format": "value", "source": "row"},
       {"header": "{by} values", "path": "values", "unit": "", "format": "count", "source": "row"}]}}]})js");
  const auto views = client::parse_compare_views(kind);
  ASSERT_EQ(views.size(), 1u);
  EXPECT_EQ(views[0].by, (std::vector<std::string>{"gpu_freq_hz", "dtype"}));
  ASSERT_NE(find_compare_view(views, "dtype"), nullptr);
  EXPECT_EQ(find_compare_view(views, "colour"), nullptr);

  const auto table = client::with_by(views[0].table, "gpu_freq_hz");
  EXPECT_EQ(table.columns[1].header, "best_gpu_freq_hz");
  EXPECT_EQ(table.columns[0].of, "gpu_freq_hz");
  const auto answer = json::parse(R"js({"rows": [
    {"device": "cpu", "dtype": "float", "m": 64, "n": 64, "k": 64, "tensor": false, "gpu_freq_hz": 1,
     "best_gpu_freq_hz": 1300500000, "values": [{}, {}, {}]},
    {"device": "cpu", "dtype": "half", "m": 8, "n": 8, "k": 8, "best_gpu_freq_hz": null, "values": 2}]})js");
  EXPECT_EQ(client::format_summary_table(table, answer),
            "params                         best_gpu_freq_hz  gpu_freq_hz values\n"
            "cpu float 64x64x64 tensor=off        1300500000                   3\n"
            "cpu half 8x8x8                                -                   -\n");
  EXPECT_EQ(client::format_summary_table(client::with_by(views[0].table, "dtype"), json::parse(R"({"rows": []})")),
            "no comparable points (by dtype)\n");
}
