// `--format table|csv|json` on every command that prints a table, against the real jetperfd on
// the simulated AGX Orin: csv is a header row and rows of as many cells, json parses, table is
// what a person reads; a command without a table refuses csv, and --json is --format json.
#include <regex>

#include <support/fixtures.hpp>
#include <support/test_paths.hpp>

#include "backbone_helpers.hpp"
#include "board_csv_merge.hpp"

namespace jetperf::test {
namespace {

using client_formats = sim_orin_suite;
using client::parse_csv;

std::string named(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + a;
  return out;
}

TEST_F(client_formats, every_table_command_prints_table_csv_and_json) {
  auto r = cli({"submit", "idle", "--duration", "0.05", "--repeats", "2", "--watch"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = std::to_string(submitted_id(r.out));
  const std::vector<std::vector<std::string>> commands = {
      {"jobs"},
      {"mode"},
      {"clocks"},
      {"models"},
      {"models", "show", "resnet18"},
      {"results", id},
      {"samples", id, "--point", "0"},
      {"trace", "analyze", fixtures_dir() + "/traces/dlrm_cpu.json"},
      {"fleet", "status", "--hosts", "orin=" + daemon_->address()},
  };
  for (const auto& command : commands) {
    const auto name = named(command);
    auto args = command;
    args.insert(args.begin(), {"--format", "table"});
    r = cli(args);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << name;

    args = command;
    args.insert(args.end(), {"--format", "csv"});
    r = cli(args);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto records = parse_csv(r.out);
    ASSERT_GE(records.size(), 2u) << name << " --format csv: a header and at least one row\n" << r.out;
    for (const auto& h : records.front()) EXPECT_FALSE(h.empty()) << name << ": an unnamed column\n" << r.out;
    for (const auto& rec : records)
      EXPECT_EQ(rec.size(), records.front().size()) << name << ": a row of another width\n" << r.out;

    args = command;
    args.insert(args.begin(), "--json");
    r = cli(args);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << name << " --json\n" << r.out;
    args = command;
    args.insert(args.begin(), {"--format", "json"});
    // Live figures (power, clock skew) differ between two calls: the same document, not the same bytes.
    const auto as_json = nlohmann::json::parse(cli(args).out, nullptr, false);
    const auto first = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_EQ(as_json.type(), first.type()) << name << ": --format json is --json";
    if (as_json.is_object() && first.is_object()) {
      for (const auto& item : first.items()) EXPECT_TRUE(as_json.contains(item.key())) << name << ": " << item.key();
    }
  }
  // The jobs table's CSV holds the job with its columns.
  r = cli({"jobs", "--format", "csv"});
  EXPECT_EQ(r.out.rfind("ID,KIND,STATE,POINTS,CREATED,TAGS\n", 0), 0u) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n" + id + ",idle,succeeded,2/2,"))) << r.out;
}

TEST_F(client_formats, a_command_without_a_table_refuses_csv_and_json_disagreeing_with_format_is_refused) {
  auto r = cli({"--format", "csv", "health"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err, "error: --format csv: `jetperf health` prints no table (table or json)\n");
  r = cli({"board", "--format", "csv"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  r = cli({"--json", "--format", "csv", "jobs"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err, "error: --json is --format json, not --format csv\n");
  r = cli({"--format", "yaml", "jobs"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  // A command's own --format wins over the global one.
  r = cli({"--format", "json", "trace", "analyze", fixtures_dir() + "/traces/dlrm_cpu.json", "--format", "csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << r.out;
  EXPECT_GE(parse_csv(r.out).size(), 2u) << r.out;
}

}  // namespace
}  // namespace jetperf::test
