// --format csv's tables: a header row, then one line per row, cells quoted as RFC 4180 says.
#include <gtest/gtest.h>

#include "output.hpp"

namespace jetperf::client {
namespace {

TEST(output_csv, header_then_rows_with_quoting) {
  EXPECT_EQ(format_csv({"ID", "TAGS"}, {{"3", "a,b"}, {"4", "say \"hi\""}, {"5", ""}}),
            "ID,TAGS\n3,\"a,b\"\n4,\"say \"\"hi\"\"\"\n5,\n");
  // No rows: the header alone, so a script still learns the columns.
  EXPECT_EQ(format_csv({"ID", "KIND"}, {}), "ID,KIND\n");
}

TEST(output_csv, render_table_picks_csv_or_the_aligned_table) {
  EXPECT_EQ(render_table("csv", {"A", "B"}, {{"1", "x"}}), "A,B\n1,x\n");
  EXPECT_EQ(render_table("table", {"A", "B"}, {{"1", "x"}}), "A  B\n1  x\n");
}

TEST(output_csv, the_job_list_in_csv_has_no_trailing_note) {
  const auto list = nlohmann::json::parse(
      R"({"jobs": [{"id": 7, "kind": "idle", "state": "succeeded", "progress": {"done": 2, "total": 2},
                   "created_at": "2026-12-07T10:00:00Z", "tags": ["a", "b"]}], "total": 9})");
  EXPECT_EQ(format_job_list(list, "csv"),
            "ID,KIND,STATE,POINTS,CREATED,TAGS\n7,idle,succeeded,2/2,2026-12-07T10:00:00Z,\"a,b\"\n");
  EXPECT_NE(format_job_list(list).find("(1 of 9 jobs; use --limit/--offset)"), std::string::npos);
}

}  // namespace
}  // namespace jetperf::client
