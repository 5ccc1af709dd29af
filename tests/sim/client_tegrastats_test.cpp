// `jetperf tegrastats parse`: the offline importer as a user runs it (the real client binary, no
// daemon): a field it does not know costs neither the line nor the run, and stderr summarises
// the file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include <support/fixtures.hpp>
#include <support/run_client.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::test {
namespace {

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

TEST(client_tegrastats, unknown_fields_are_kept_and_the_file_is_summarised) {
  temp_dir tmp;
  const std::string log = tmp.file("ts.log");
  write_file(log,
             "RAM 1/2MB XYZ??? CPU [1%@100]\n"
             "\n"
             "hello world\n"
             "04-11-2025 10:36:27 RAM 3/4MB XYZ!!! BAR [1,2] GR3D_FREQ 5%@[1,2] NVDLA0 off\n"
             "RAM 5/6MB\n");
  const auto r = run_client({"tegrastats", "parse", log});
  // One line had nothing readable: the run says so with exit code 1, and converts the rest.
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto records = json_lines(r.out);
  ASSERT_EQ(records.size(), 3u) << r.out;
  EXPECT_EQ(records[0]["ram"]["used_mb"], 1);
  EXPECT_EQ(records[0]["cpus"][0]["freq_mhz"], 100);
  EXPECT_EQ(records[0]["unparsed"], nlohmann::json::array({"XYZ???"}));
  EXPECT_EQ(records[1]["timestamp"], "04-11-2025 10:36:27");
  EXPECT_EQ(records[1]["gpu"]["freq_mhz"], nlohmann::json::array({1, 2}));
  EXPECT_EQ(records[1]["unparsed"], nlohmann::json::array({"XYZ!!!", "BAR [1,2]"}));
  EXPECT_FALSE(records[2].contains("unparsed"));
  EXPECT_NE(r.err.find(log + ": 4 lines, 3 parsed, 3 fields unparsed, 1 errors\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(log + ": unparsed XYZ: 2\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(log + ": unparsed BAR: 1\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(log + ":3: "), std::string::npos) << r.err;
}

TEST(client_tegrastats, every_real_board_line_converts_cleanly) {
  for (const char* name : {"tegrastats_orin-agx-64gb_r36.txt", "tegrastats_tx2_r32_nonroot.txt",
                           "tegrastats_nano_r32_nonroot.txt", "tegrastats_xavier-agx_r32.1_nonroot.txt"}) {
    SCOPED_TRACE(name);
    const std::string path = fixtures_dir() + "/" + name;
    const auto r = run_client({"tegrastats", "parse", path, "--format", "csv"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(path + ": 1 lines, 1 parsed, 0 fields unparsed, 0 errors\n"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("unparsed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ram.used_mb"), std::string::npos) << r.out;
  }
}

// The fields the parser reads are all written: SWAP, lfb, APE and VIC_FREQ were parsed and then
// left out of both forms while the summary said "0 fields unparsed".
TEST(client_tegrastats, swap_lfb_and_engines_are_written_and_o_writes_the_file) {
  temp_dir tmp;
  const std::string path = fixtures_dir() + "/tegrastats_orin-agx-64gb_r36.txt";
  const auto out = tmp.file("orin.jsonl");
  const auto r = run_client({"tegrastats", "parse", path, "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const auto records = json_lines(read_file(out));
  ASSERT_EQ(records.size(), 1u);
  const auto& j = records[0];
  EXPECT_EQ(j["swap"]["used_mb"], 19);
  EXPECT_EQ(j["swap"]["total_mb"], 31400);
  EXPECT_EQ(j["swap"]["cached_mb"], 0);
  EXPECT_EQ(j["ram"]["lfb_blocks"], 1759);
  EXPECT_EQ(j["ram"]["lfb_block_mb"], 4);
  EXPECT_EQ(j["engines"]["APE"]["freq_mhz"], 174);
  EXPECT_EQ(j["engines"]["VIC_FREQ"]["freq_mhz"], 729);
  const auto csv = run_client({"tegrastats", "parse", path, "--format", "csv", "-o", tmp.file("orin.csv")});
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  const auto text = read_file(tmp.file("orin.csv"));
  for (const char* column : {"swap.used_mb", "swap.total_mb", "ram.lfb_blocks", "engines.APE.freq_mhz", "engines.VIC_FREQ.freq_mhz"})
    EXPECT_NE(text.find(column), std::string::npos) << column << "\n" << text;
  EXPECT_EQ(run_client({"tegrastats", "parse", path, "-o", tmp.file("no/such/dir/x")}).exit_code, 2);
}

}  // namespace
}  // namespace jetperf::test
