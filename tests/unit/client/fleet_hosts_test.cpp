// The hosts file and --hosts list of `jetperf fleet`, and the merge of the boards' CSV tables.
#include <gtest/gtest.h>

#include "board_csv_merge.hpp"
#include "fleet_hosts.hpp"

namespace jetperf::client {
namespace {

TEST(fleet_hosts, file_lines_with_token_files_and_comments) {
  const auto hosts = parse_hosts_file(
      "# lab A\n\norin-1 = 10.0.0.5:7070 /etc/jetperf/orin-1.token\n  nx_2=nx2.lab:7071   # spare\n", "hosts");
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].name, "orin-1");
  EXPECT_EQ(hosts[0].address, "10.0.0.5:7070");
  EXPECT_EQ(hosts[0].token_file, "/etc/jetperf/orin-1.token");
  EXPECT_EQ(hosts[1].name, "nx_2");
  EXPECT_EQ(hosts[1].address, "nx2.lab:7071");
  EXPECT_EQ(hosts[1].token_file, "");
}

TEST(fleet_hosts, bad_files_name_the_line) {
  auto message = [](const std::string& text) {
    try {
      parse_hosts_file(text, "h");
    } catch (const fleet_hosts_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("a = x:1\nb x:2\n"), "h:2: expected 'name = host:port [token-file]'");
  EXPECT_EQ(message("a =\n"), "h:1: board 'a' has no address");
  EXPECT_EQ(message("a = x:1 t extra\n"), "h:1: unexpected 'extra' after the token file");
  EXPECT_EQ(message("a = x:1\na = y:1\n"), "h: board 'a' is listed twice");
  EXPECT_NE(message("bad name = x:1\n").find("is not a board name"), std::string::npos);
  EXPECT_NE(message("-a = x:1\n").find("is not a board name"), std::string::npos);
}

TEST(fleet_hosts, list_and_selection) {
  const auto hosts = parse_hosts_list("127.0.0.1:7070, nx=10.0.0.6:7070");
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].name, "127.0.0.1:7070");
  EXPECT_EQ(hosts[1].name, "nx");
  EXPECT_EQ(hosts[1].address, "10.0.0.6:7070");
  EXPECT_THROW(parse_hosts_list("a,,b"), fleet_hosts_error);
  EXPECT_THROW(parse_hosts_list("a:1,a:1"), fleet_hosts_error);
  const auto picked = select_hosts(hosts, "nx");
  ASSERT_EQ(picked.size(), 1u);
  EXPECT_EQ(picked[0].address, "10.0.0.6:7070");
  EXPECT_EQ(select_hosts(hosts, "").size(), 2u);
  EXPECT_THROW(select_hosts(hosts, "nx,nosuch"), fleet_hosts_error);
}

TEST(board_csv_merge, parses_quoted_cells) {
  const auto rows = parse_csv("a,b,c\n1,\"x, \"\"y\"\"\",\r\n\"multi\nline\",,3\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "x, \"y\"", ""}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"multi\nline", "", "3"}));
}

TEST(board_csv_merge, union_of_columns_with_board_first) {
  const std::string orin = "job_id,status,rail_VDD_GPU_SOC_w\n4,ok,1.5\n4,ok,1.75\n";
  const std::string nx = "job_id,status,rail_VDD_IN_w\n9,\"ok\",\"3,5\"\n";
  EXPECT_EQ(merge_board_csv({{"orin", orin}, {"nx", nx}}),
            "board,job_id,status,rail_VDD_GPU_SOC_w,rail_VDD_IN_w\n"
            "orin,4,ok,1.5,\n"
            "orin,4,ok,1.75,\n"
            "nx,9,ok,,\"3,5\"\n");
  // A board with no rows adds nothing; no board gives the header alone.
  EXPECT_EQ(merge_board_csv({{"a", "x\n"}}), "board,x\n");
  EXPECT_EQ(merge_board_csv({}), "board\n");
}

}  // namespace
}  // namespace jetperf::client
