// docs/results.md lists each kind's columns as its column table declares them (GET /v1/kinds):
// the lists are generated (tests/tools/results_doc) and this test fails, naming the kind and the
// command that regenerates them, when one is missing or stale.
#include <column_lists.hpp>

#include <algorithm>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test::results_doc {
namespace {

std::string results_doc() { return read_file(source_dir() + "/docs/results.md"); }

TEST(results_doc_columns, every_kind_s_column_list_in_docs_results_md_is_current) {
  const auto registry = daemon_kinds();
  const auto doc = results_doc();
  ASSERT_EQ(registry.kinds(), (std::vector<std::string>{"command", "gemm", "idle", "layers", "multi_dnn", "sensor"}));
  for (const auto& kind : stale_kinds(doc, registry))
    ADD_FAILURE() << "docs/results.md: the column list of kind '" << kind << "' is "
                  << (block_of(doc, kind) ? "not what its column table declares" : "missing (no <!-- columns:" + kind + " --> markers)")
                  << "; regenerate it: " << k_regenerate_command;
}

TEST(results_doc_columns, a_list_is_one_row_per_output_column_in_order) {
  const auto registry = daemon_kinds();
  const auto md = column_list_markdown(registry.get("gemm"));
  EXPECT_NE(md.find("| column | type | unit | role | description |\n| --- | --- | --- | --- | --- |\n"
                    "| `index` | integer |  | parameter | position of the point in the job, from 0 |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `time_mean_s` | number | s | metric (main) | mean time of one GEMM |\n"), std::string::npos) << md;
  // One rail column per board rail, named as GET /v1/kinds names it, its placeholder no HTML tag.
  EXPECT_NE(md.find("| `rail_<NAME>_w` | number | W | metric | mean power of rail &lt;NAME&gt; over the measurement "
                    "window |\n"),
            std::string::npos)
      << md;
  EXPECT_LT(md.find("`rail_<NAME>_w`"), md.find("`reason`"));
  EXPECT_LT(md.find("`m`"), md.find("`n`"));
  EXPECT_NE(md.find(k_regenerate_command), std::string::npos);
  // The idle kind measures no GEMM: none of gemm's own columns.
  EXPECT_EQ(column_list_markdown(registry.get("idle")).find("`gflops`"), std::string::npos);
}

TEST(results_doc_columns, a_stale_or_missing_list_is_found_and_rewritten) {
  const auto registry = daemon_kinds();
  const auto current = column_list_markdown(registry.get("idle"));
  std::string doc = "# Results\n\n## idle\n\n<!-- columns:idle -->\n| `gone` |\n<!-- /columns:idle -->\n\nAfter.\n";
  auto stale = stale_kinds(doc, registry);
  // idle's block is stale; the other kinds have none.
  EXPECT_EQ(stale, (std::vector<std::string>{"command", "gemm", "idle", "layers", "multi_dnn", "sensor"}));
  doc = with_block(doc, "idle", current);
  EXPECT_EQ(block_of(doc, "idle"), current);
  EXPECT_EQ(doc.rfind("\n\nAfter.\n"), doc.size() - 9);
  EXPECT_EQ(doc.find("# Results\n\n## idle\n\n<!-- columns:idle -->"), 0u);
  stale = stale_kinds(doc, registry);
  EXPECT_EQ(std::count(stale.begin(), stale.end(), "idle"), 0);
  try {
    with_block(doc, "gemm", "x");
    ADD_FAILURE() << "a doc without gemm's markers was written";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("add the lines <!-- columns:gemm --> and <!-- /columns:gemm -->"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace jetperf::test::results_doc
